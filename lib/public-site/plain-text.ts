// The operator's texts (privacy policy, imprint) are plain text with a little structure, never
// HTML: this turns them into blocks that React renders as elements, so nothing the admin writes
// can become markup or script.

export type TextBlock = { kind: 'heading'; text: string } | { kind: 'paragraph'; lines: string[] } | { kind: 'list'; items: string[] };

/**
 * Blank lines separate blocks; a block's line starting with "# " (or "## ") is a heading, a block
 * of lines starting with "- " or "* " is a list, anything else a paragraph whose line breaks stay.
 */
export function parsePlainText(source: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const chunk of source.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    while (lines.length && /^#{1,3}\s+/.test(lines[0]!)) blocks.push({ kind: 'heading', text: lines.shift()!.replace(/^#{1,3}\s+/, '') });
    if (!lines.length) continue;
    if (lines.every((line) => /^[-*]\s+/.test(line))) blocks.push({ kind: 'list', items: lines.map((line) => line.replace(/^[-*]\s+/, '')) });
    else blocks.push({ kind: 'paragraph', lines });
  }
  return blocks;
}
