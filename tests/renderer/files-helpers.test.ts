// The renderer's small file rules: what a saved file is named (a contact chose the name), which
// files the composer takes for one message, and a contact's initials.
import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_FILE_BYTES, MAX_UPLOAD_FILES, MAX_UPLOAD_TOTAL_BYTES } from '../../shared/bridge/calls/messages';
import { initialsOf } from '../../renderer/src/components/Avatar';
import { admit } from '../../renderer/src/composer/attachments';
import { savedFileName } from '../../renderer/src/files/file-name';

describe('savedFileName', () => {
  it('keeps an ordinary name', () => {
    expect(savedFileName('invoice-4411.pdf')).toBe('invoice-4411.pdf');
    expect(savedFileName('résumé 2026.docx')).toBe('résumé 2026.docx');
  });
  it('takes out reordering and hidden characters, so the name saved is the name read', () => {
    expect(savedFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe.txt');
    expect(savedFileName('a\u200Bb\u2066c.png')).toBe('abc.png');
  });
  it('takes out path separators and reserved characters, and dots or spaces at the ends', () => {
    expect(savedFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(savedFileName('C:\\Windows\\evil.dll')).toBe('C__Windows_evil.dll');
    expect(savedFileName('  .hidden.  ')).toBe('hidden');
    expect(savedFileName('\u202E')).toBe('file');
  });
  it('adds .txt to a name that would run or render when double-clicked', () => {
    for (const name of ['run.bat', 'x.JS', 'setup.ps1', 'page.html', 'image.svg', 'link.lnk', 'start.command', 'a.desktop']) expect(savedFileName(name), name).toBe(`${name}.txt`);
    expect(savedFileName('notes.txt')).toBe('notes.txt');
  });
});

const file = (name: string, size: number) => ({ name, size }) as File;

describe('admit (the composer\'s files for one message)', () => {
  it('takes files up to the count, each size and the total, and says why it left others out', () => {
    expect(admit([], [file('a.png', 10), file('b.pdf', 20)])).toEqual({ files: [file('a.png', 10), file('b.pdf', 20)], problems: [] });
    expect(admit([], [file('empty.txt', 0)]).problems).toEqual(['empty.txt is empty.']);
    expect(admit([], [file('big.mov', MAX_UPLOAD_FILE_BYTES + 1)]).problems[0]).toMatch(/big\.mov is larger than/);
    const many = Array.from({ length: MAX_UPLOAD_FILES + 2 }, (_, i) => file(`f${i}`, 1));
    const admitted = admit([], many);
    expect(admitted.files).toHaveLength(MAX_UPLOAD_FILES);
    expect(admitted.problems).toEqual([`At most ${MAX_UPLOAD_FILES} files per message.`]);
    const half = Math.floor(MAX_UPLOAD_TOTAL_BYTES / 2);
    const total = admit([file('one', half)], [file('two', half), file('three', half)]);
    expect(total.files.map((f) => f.name)).toEqual(['one', 'two']);
    expect(total.problems[0]).toMatch(/at most .* MB together/);
  });
});

describe('initialsOf', () => {
  it('first letters of the first and last words, by whole characters, in any script', () => {
    expect(initialsOf('Ava Nguyen')).toBe('AN');
    expect(initialsOf('leila')).toBe('L');
    expect(initialsOf('Jean-Luc de la Croix')).toBe('JC');
    expect(initialsOf('محمد علي')).toBe('مع');
    expect(initialsOf('(Ana) Silva')).toBe('AS');
    expect(initialsOf('')).toBe('?');
  });
  it('reads plain ASCII names (their own quick path) as any other', () => {
    expect(initialsOf('  Ava   Nguyen  ')).toBe('AN');
    expect(initialsOf('!!!bob')).toBe('B');
    expect(initialsOf('a.b c')).toBe('AC');
    expect(initialsOf('x -- 9lives')).toBe('X9');
    expect(initialsOf('-- --')).toBe('?');
    expect(initialsOf('Zoë Kravitz')).toBe('ZK');
  });
  it('never shows a hidden or reordering character', () => {
    expect(initialsOf('\u202EAva Nguyen')).toBe('AN');
    expect(initialsOf('\u200B')).toBe('?');
  });
});
