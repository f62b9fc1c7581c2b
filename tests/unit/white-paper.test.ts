import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The white paper on the home page (SPEC point 2, "white paper view and download") is rendered
// from docs/white-paper.md by scripts/white-paper.mjs, which writes the text's SHA-256 into the
// PDF's Keywords. pdfkit writes the info dictionary uncompressed, so the PDF read as latin1
// shows it verbatim.
const source = path.join(process.cwd(), 'docs', 'white-paper.md');
const pdfPath = path.join(process.cwd(), 'public', 'white-paper.pdf');
const stale = 'public/white-paper.pdf was not made from the current docs/white-paper.md: run npm run white-paper';

describe('the white paper PDF', () => {
  const pdf = existsSync(pdfPath) ? readFileSync(pdfPath).toString('latin1') : '';

  it('exists and is a PDF', () => {
    if (!pdf) throw new Error('public/white-paper.pdf is missing: run npm run white-paper');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
  });

  it('was rendered from the current text', () => {
    const text = readFileSync(source, 'utf8').replace(/\r\n/g, '\n');
    const sha256 = createHash('sha256').update(text).digest('hex');
    const recorded = /source-sha256:([0-9a-f]{64})/.exec(pdf)?.[1];
    if (recorded !== sha256) throw new Error(`${stale} (PDF: ${recorded ?? 'no source hash'}, text: ${sha256})`);
  });
});
