// The service benchmark's receivers recognise each create's event by its number, as bytes.
import { describe, expect, it } from 'vitest';
import { benchNumber } from '../../scripts/bench/bench-frames';

const frame = (text: string) => Buffer.from(text);

describe('benchNumber', () => {
  it("reads the create's number from a message.created frame, as socket.io sends it (recovery offset last)", () => {
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"bench 4711","account_id":1},"0abc-12"]'))).toBe(4711);
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"bench 0"}]'))).toBe(0);
  });
  it('tells another message (-1) from another frame (undefined)', () => {
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"hello"}]'))).toBe(-1);
    expect(benchNumber(frame('42["message.created",{"content":"bench "}]'))).toBe(-1);
    expect(benchNumber(frame('42["message.created",{"content":"bench 12x"}]'))).toBe(-1);
    expect(benchNumber(frame('42["conversation.updated",{"content":"bench 1"}]'))).toBeUndefined();
    expect(benchNumber(frame('2'))).toBeUndefined();
    expect(benchNumber(frame('40{"sid":"x"}'))).toBeUndefined();
  });
});
