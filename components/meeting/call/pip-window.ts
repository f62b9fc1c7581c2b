// Opens the Document Picture-in-Picture window with the page's styles; loaded when the button is
// first pressed (usePictureInPicture), not with the call.

/** The page's styles in the floating window, so the controls there look like the call's. */
function copyStyles(into: Document) {
  for (const sheet of document.styleSheets) {
    try {
      const style = into.createElement('style');
      style.textContent = [...sheet.cssRules].map((rule) => rule.cssText).join('\n');
      into.head.appendChild(style);
    } catch {
      if (!sheet.href) continue;
      const link = into.createElement('link');
      link.rel = 'stylesheet';
      link.href = sheet.href;
      into.head.appendChild(link);
    }
  }
}

export async function openPipWindow(title: string): Promise<Window> {
  const opened = await window.documentPictureInPicture!.requestWindow({ width: 420, height: 280 });
  opened.document.title = title;
  copyStyles(opened.document);
  return opened;
}
