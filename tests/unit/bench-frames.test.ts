// The service benchmark's receivers recognise each create's event by its number, as bytes.
import { describe, expect, it } from 'vitest';
import { benchNumber } from '../../scripts/bench/bench-frames';

const frame = (text: string) => Buffer.from(text);

describe('benchNumber', () => {
  it("reads the create's number from a message.created frame, as socket.io sends it (recovery offset last)", () => {
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"bench 4711","account_id":1},"0abc-12"]'))).toBe(4711);
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"bench 0"}]'))).toBe(0);
  });
  it('finds the content wherever it is, should the payload not begin as the presenter writes it', () => {
    expect(benchNumber(frame('42["message.created",{"account_id":1,"content":"bench 31"}]'))).toBe(31);
    expect(benchNumber(frame('42["message.created",{"id":9,"inbox_id":2,"content":"bench 8"}]'))).toBe(8);
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"warm-up 3","processed_message_content":"warm-up 3"}]'))).toBe(-1);
    expect(benchNumber(frame('42["message.created",{"id":9,"content":"bench 7'))).toBe(-1);
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

describe('benchNumber in place (a frame inside a TCP chunk)', () => {
  it('reads only between start and end', () => {
    const payload = '42["message.created",{"id":9,"content":"bench 4711","account_id":1}]';
    const chunk = Buffer.from(`xx${payload}42["message.created",{"id":1,"content":"bench 99"}]`);
    expect(benchNumber(chunk, 2, 2 + payload.length)).toBe(4711);
    // A frame cut before the number's closing quote is no create, whatever follows it in the chunk.
    const cut = Buffer.from('42["message.created",{"id":9,"content":"bench 47"}]');
    expect(benchNumber(cut, 0, cut.indexOf('47') + 2)).toBe(-1);
    // Cut before the content: the search must not find it past the end.
    expect(benchNumber(cut, 0, cut.indexOf('"content"'))).toBe(-1);
    expect(benchNumber(chunk, 0, 20)).toBeUndefined();
  });
});
