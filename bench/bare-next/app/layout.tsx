// The smallest App Router layout Next accepts: the floor every Enclave page is measured against.
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
