import { brokenCitations } from '../../scripts/citations';

// Every file, folder, glob and symbol that docs/ and the code's comments cite exists (issue 45):
// `npx tsx scripts/citations.ts` prints the same list with line numbers.
describe('citations of the code in docs and comments', () => {
  it('name only places that exist', () => {
    expect(brokenCitations().map(({ file, line, cited }) => `${file}:${line}: ${cited}`)).toEqual([]);
  });
});
