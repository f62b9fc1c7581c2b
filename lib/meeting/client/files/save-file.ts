// The only moment a received file touches the disk: the person chose Save (transfers.ts).

/**
 * Hands the bytes to the browser as a download named `name` (already safeFileName'd). Always as
 * plain bytes, whatever type the offer claimed: a blob URL has this page's origin, and one typed
 * text/html or image/svg+xml would run the sender's script here if it were ever opened as a page.
 */
export function saveFile(data: Uint8Array<ArrayBuffer>, name: string) {
  const url = URL.createObjectURL(new Blob([data], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started reading it by then; a revoked URL frees the copy it holds.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
