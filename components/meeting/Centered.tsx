/** A message in the middle of the meeting page: loading, errors, waiting, the end of a call. */
export function Centered({ title, children }: { title?: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center text-white">
      {title && <h1 className="text-2xl font-bold">{title}</h1>}
      <div className="max-w-md text-slate-300">{children}</div>
    </main>
  );
}
