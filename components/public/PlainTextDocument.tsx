import { parsePlainText } from '@/lib/public-site/plain-text';

/** An operator's text (privacy policy, imprint) as headings, paragraphs and lists: elements only, never HTML. */
export function PlainTextDocument({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-4 break-words text-slate-700">
      {parsePlainText(text).map((block, index) => {
        if (block.kind === 'heading') {
          return (
            <h2 key={index} className="mt-4 text-xl font-semibold text-slate-900">
              {block.text}
            </h2>
          );
        }
        if (block.kind === 'list') {
          return (
            <ul key={index} className="list-disc space-y-1 pl-6">
              {block.items.map((item, at) => (
                <li key={at}>{item}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index}>
            {block.lines.map((line, at) => (
              <span key={at}>
                {at > 0 && <br />}
                {line}
              </span>
            ))}
          </p>
        );
      })}
    </div>
  );
}
