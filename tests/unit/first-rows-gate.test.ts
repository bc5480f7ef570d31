import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFirstRowsGate } from '../../renderer/src/client/first-rows-gate';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the first rows gate', () => {
  it('is open from the start for a session whose rows were not read early', () => {
    const gate = createFirstRowsGate(false);
    expect(gate.isOpen()).toBe(true);
    const told = vi.fn();
    gate.subscribe(told)();
    gate.open();
    expect(told).not.toHaveBeenCalled();
  });

  it('tells each listener once when the list opens it, and only those still listening', () => {
    const gate = createFirstRowsGate(true);
    const a = vi.fn();
    const b = vi.fn();
    gate.subscribe(a);
    const stopB = gate.subscribe(b);
    stopB();
    expect(gate.isOpen()).toBe(false);
    gate.open();
    gate.open();
    expect(gate.isOpen()).toBe(true);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).not.toHaveBeenCalled();
  });

  it('opens by itself when no list opens it', () => {
    const gate = createFirstRowsGate(true, 1_000);
    const told = vi.fn();
    gate.subscribe(told);
    vi.advanceTimersByTime(999);
    expect(gate.isOpen()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(gate.isOpen()).toBe(true);
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('stays as it is once its session stopped', () => {
    const gate = createFirstRowsGate(true, 1_000);
    gate.stop();
    vi.advanceTimersByTime(5_000);
    expect(gate.isOpen()).toBe(false);
  });
});
