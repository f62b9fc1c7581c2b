// Renders docs/white-paper.md to public/white-paper.pdf (npm run white-paper).
//
// A deliberately small markdown subset: "#" title (the paragraph right under it is the
// subtitle), "##" and "###" headings, paragraphs, "-" lists, **bold** and `code` spans.
// pdfkit's built-in Helvetica and Courier only (no font files, no network), so the text must
// stay within WinAnsi; a few common characters are mapped to ASCII and anything else stops the
// build with the offending line.
//
// The output is deterministic: fixed dates, and the PDF file id pdfkit derives from the info
// dictionary. The info's Keywords carry "source-sha256:<hex>" of the markdown, which
// tests/unit/white-paper.test.ts compares with the current text.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = join(root, 'docs/white-paper.md');
const OUTPUT = join(root, 'public/white-paper.pdf');

/** Fixed, so that the same text always gives the same bytes. Change it when the paper is re-issued. */
const DOCUMENT_DATE = new Date('2026-11-24T00:00:00Z');

const BRAND = '#0f766e';
const BRAND_LIGHT = '#ccfbf1';
const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#d9e2ec';

const PAGE = { size: 'A4', margins: { top: 70, bottom: 70, left: 62, right: 62 } };
const BODY = { font: 'Helvetica', bold: 'Helvetica-Bold', code: 'Courier', size: 10, lineGap: 2.4 };

// ---- text: keep to what the standard fonts can encode ----

const REPLACEMENTS = {
  '\u2192': '->', // →
  '\u2190': '<-', // ←
  '\u2194': '<->', // ↔
  '\u2264': '<=', // ≤
  '\u2265': '>=', // ≥
  '\u2260': '!=', // ≠
  '\u2212': '-', // − (minus)
  '\u2016': '||', // ‖
  '\u2248': '~', // ≈
  '\u2026': '...', // … (encodable, but reads better spelled out in Helvetica)
  '\u2009': ' ', // thin space
  '\u202f': '\u00a0', // narrow no-break space
};

/** The characters WinAnsiEncoding has beyond Latin-1 (0x80-0x9F). */
const WIN_ANSI_EXTRA = new Set(
  '\u20ac\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u017d\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u017e\u0178',
);

function encodable(char) {
  const code = char.codePointAt(0);
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
}

function clean(text, lineNumber) {
  let out = '';
  for (const char of text) {
    const mapped = REPLACEMENTS[char] ?? char;
    for (const c of mapped) {
      if (!encodable(c)) {
        const hex = c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
        throw new Error(`docs/white-paper.md:${lineNumber}: U+${hex} "${c}" cannot be written with the standard PDF fonts; use ASCII`);
      }
    }
    out += mapped;
  }
  return out;
}

// ---- markdown: blocks and inline spans ----

/** Blocks: { type: 'h1' | 'h2' | 'h3' | 'p', text } and { type: 'list', items: [text] }. */
function parseMarkdown(source) {
  const blocks = [];
  let current = null; // the paragraph or list being read
  source.split(/\r?\n/).forEach((raw, index) => {
    const line = clean(raw.trimEnd(), index + 1);
    if (line.trim() === '') {
      current = null;
      return;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ type: `h${heading[1].length}`, text: heading[2].trim() });
      current = null;
      return;
    }
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (item) {
      if (current?.type !== 'list') blocks.push((current = { type: 'list', items: [] }));
      current.items.push(item[1].trim());
      return;
    }
    if (current?.type === 'list') current.items[current.items.length - 1] += ` ${line.trim()}`;
    else if (current?.type === 'p') current.text += ` ${line.trim()}`;
    else blocks.push((current = { type: 'p', text: line.trim() }));
  });
  return blocks;
}

/** "a **b** `c`" -> [{ text: 'a ' }, { text: 'b', bold: true }, { text: ' ' }, { text: 'c', code: true }] */
function parseInline(text) {
  return text
    .split(/(\*\*[^*]+\*\*|`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part) => {
      if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return { text: part.slice(2, -2), bold: true };
      if (part.startsWith('`') && part.endsWith('`') && part.length > 2) return { text: part.slice(1, -1), code: true };
      return { text: part };
    });
}

const plain = (text) =>
  parseInline(text)
    .map((span) => span.text)
    .join('');

// ---- layout ----

function contentWidth(doc) {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

function bottomLimit(doc) {
  return doc.page.height - doc.page.margins.bottom;
}

/** Starts a new page unless `height` points still fit. */
function ensureSpace(doc, height) {
  if (doc.y + height > bottomLimit(doc)) doc.addPage();
}

/** One paragraph of mixed spans at (x, width), continuing across pages as pdfkit does. */
function richText(doc, text, { x, width, size = BODY.size, color = INK, font = BODY.font, boldFont = BODY.bold, lineGap = BODY.lineGap }) {
  const spans = parseInline(text);
  spans.forEach((span, index) => {
    const last = index === spans.length - 1;
    doc
      .font(span.code ? BODY.code : span.bold ? boldFont : font)
      .fontSize(span.code ? size * 0.94 : size)
      .fillColor(span.code ? BRAND : color);
    const options = { width, lineGap, continued: !last };
    if (index === 0) doc.text(span.text, x, doc.y, options);
    else doc.text(span.text, options);
  });
  doc.fillColor(INK);
}

function titleBlock(doc, title, subtitle) {
  const { width } = doc.page;
  const left = doc.page.margins.left;
  const textWidth = contentWidth(doc);
  const bandHeight = 236;
  doc.rect(0, 0, width, bandHeight).fill(BRAND);
  // A quiet geometric mark: three concentric outlines at the band's right edge.
  doc.save().lineWidth(1.2).strokeColor('#14b8a6').opacity(0.45);
  for (const radius of [60, 95, 130]) doc.circle(width - 40, 40, radius).stroke();
  doc.restore();

  doc.font(BODY.bold).fontSize(10).fillColor(BRAND_LIGHT).text('ENCLAVE  |  WHITE PAPER', left, 64, { characterSpacing: 1.6, width: textWidth });
  doc
    .font(BODY.bold)
    .fontSize(25)
    .fillColor('#ffffff')
    .text(title, left, 92, { width: textWidth - 40, lineGap: 3 });
  if (subtitle) {
    doc.moveDown(0.7);
    doc
      .font(BODY.font)
      .fontSize(11.5)
      .fillColor(BRAND_LIGHT)
      .text(subtitle, left, doc.y, { width: textWidth - 40, lineGap: 2 });
  }
  doc.fillColor(INK);
  doc.y = bandHeight + 30;
}

function heading(doc, block) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  if (block.type === 'h2') {
    // Keep a heading with at least three lines of what follows it.
    ensureSpace(doc, 70);
    if (doc.y > doc.page.margins.top + 1) doc.moveDown(0.8);
    const top = doc.y;
    doc.font(BODY.bold).fontSize(15).fillColor(BRAND).text(plain(block.text), left, top, { width });
    const underline = doc.y + 3;
    doc
      .moveTo(left, underline)
      .lineTo(left + 36, underline)
      .lineWidth(2)
      .strokeColor(BRAND)
      .stroke();
    doc.y = underline + 9;
    doc.outline.addItem(plain(block.text));
  } else {
    ensureSpace(doc, 55);
    doc.moveDown(0.35);
    doc.font(BODY.bold).fontSize(11.5).fillColor(INK).text(plain(block.text), left, doc.y, { width });
    doc.moveDown(0.3);
  }
  doc.fillColor(INK);
}

function paragraph(doc, text, { lead = false } = {}) {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  if (lead) {
    // The abstract: slightly larger, with a brand bar at its left.
    const top = doc.y;
    richText(doc, text, {
      x: left + 14,
      width: width - 14,
      size: 11,
      color: '#243b53',
      lineGap: 3,
    });
    doc.rect(left, top + 1, 3, doc.y - top - 2).fill(BRAND);
    doc.moveDown(0.75);
    return;
  }
  ensureSpace(doc, 30);
  richText(doc, text, { x: left, width });
  doc.moveDown(0.6);
}

function list(doc, items) {
  const left = doc.page.margins.left;
  const indent = 16;
  const width = contentWidth(doc) - indent;
  for (const item of items) {
    ensureSpace(doc, 28);
    const top = doc.y;
    doc.circle(left + 5, top + BODY.size * 0.55, 1.9).fill(BRAND);
    richText(doc, item, { x: left + indent, width });
    doc.moveDown(0.35);
  }
  doc.moveDown(0.3);
}

/** Running header (from page 2) and footer with page numbers, drawn once every page exists. */
function decoratePages(doc, title) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const { width, height, margins } = doc.page;
    const saved = margins.bottom;
    margins.bottom = 0; // writing below the bottom margin must not open a new page
    const textWidth = width - margins.left - margins.right;
    if (i > range.start) {
      doc.font(BODY.font).fontSize(8).fillColor(MUTED).text(title, margins.left, 38, { width: textWidth, lineBreak: false });
      doc
        .moveTo(margins.left, 52)
        .lineTo(width - margins.right, 52)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
    }
    const footerY = height - 46;
    doc
      .moveTo(margins.left, footerY - 8)
      .lineTo(width - margins.right, footerY - 8)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font(BODY.bold).fontSize(8).fillColor(BRAND).text('Enclave', margins.left, footerY, { width: textWidth, lineBreak: false });
    doc
      .font(BODY.font)
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Page ${i - range.start + 1} of ${range.count}`, margins.left, footerY, {
        width: textWidth,
        align: 'right',
        lineBreak: false,
      });
    margins.bottom = saved;
  }
}

function renderWhitePaper(source) {
  // Of the text with LF line ends, so a checkout with CRLF endings proves the same thing.
  const sha256 = createHash('sha256').update(source.replace(/\r\n/g, '\n')).digest('hex');
  const blocks = parseMarkdown(source);
  const titleIndex = blocks.findIndex((block) => block.type === 'h1');
  if (titleIndex < 0) throw new Error('docs/white-paper.md needs a "# Title" line');
  const title = plain(blocks[titleIndex].text);
  const subtitleBlock = blocks[titleIndex + 1]?.type === 'p' ? blocks[titleIndex + 1] : null;
  const body = blocks.filter((block, index) => index !== titleIndex && block !== subtitleBlock);

  const keywords = `Enclave, end-to-end encryption, WebRTC, SFrame, RFC 9605, peer-to-peer, video meetings, source-sha256:${sha256}`;
  const doc = new PDFDocument({
    ...PAGE,
    bufferPages: true,
    displayTitle: true,
    lang: 'en',
    info: {
      Title: title,
      Author: 'Enclave',
      Subject: 'Security design of Enclave: peer-to-peer video meetings with end-to-end frame encryption',
      Keywords: keywords,
      Creator: 'Enclave scripts/white-paper.mjs',
      Producer: 'PDFKit',
      CreationDate: DOCUMENT_DATE,
      ModDate: DOCUMENT_DATE,
    },
  });

  titleBlock(doc, title, subtitleBlock ? plain(subtitleBlock.text) : null);
  let section = '';
  for (const block of body) {
    if (block.type === 'h1' || block.type === 'h2' || block.type === 'h3') {
      if (block.type !== 'h3') section = plain(block.text);
      heading(doc, block.type === 'h1' ? { ...block, type: 'h2' } : block);
    } else if (block.type === 'list') list(doc, block.items);
    else paragraph(doc, block.text, { lead: section === 'Abstract' });
  }
  decoratePages(doc, title);
  return { doc, sha256 };
}

function main() {
  const source = readFileSync(SOURCE, 'utf8');
  const { doc, sha256 } = renderWhitePaper(source);
  mkdirSync(dirname(OUTPUT), { recursive: true });
  const out = createWriteStream(OUTPUT);
  doc.pipe(out);
  const pages = doc.bufferedPageRange().count;
  doc.end();
  out.on('finish', () => {
    console.log(`public/white-paper.pdf: ${pages} pages, source-sha256:${sha256}`);
  });
}

main();
