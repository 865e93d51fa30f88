/** CSV cells (src/csv.ts): RFC 4180 quoting and the formula-injection guard. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvCell, toCsv } from '../src/csv';

describe('csv', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell(undefined), '');
  });

  it('puts an apostrophe before a text cell starting with = + - @ (or a tab or CR); numbers stay numbers', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      assert.equal(csvCell(`${start}1`).replace(/^"/, '')[0], "'", JSON.stringify(start));
    assert.equal(csvCell('=SUM(A1:A2)'), "'=SUM(A1:A2)");
    assert.equal(csvCell('=HYPERLINK("x","y")'), `"'=HYPERLINK(""x"",""y"")"`);
    assert.equal(csvCell('a=b'), 'a=b');
    assert.equal(csvCell(-5), '-5');
    assert.equal(csvCell(7), '7');
  });

  it('ends every row with CRLF', () => {
    assert.equal(
      toCsv([
        ['a', 'b'],
        [1, '+x'],
      ]),
      "a,b\r\n1,'+x\r\n",
    );
  });
});
