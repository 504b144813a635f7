// PDF.js's legacy build (the one that runs on Node 20) brings core-js, which on Node 20 replaces JSON.stringify with
// its own (for JSON.rawJSON), one that runs out of stack on deep values. The test files of a worker share this process
// (decision 028), so the native one is put back: no other test runs on the polyfill.
const nativeStringify = JSON.stringify;
const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
JSON.stringify = nativeStringify;

/** The text of each page of a PDF, read back by Mozilla's PDF.js as a PDF reader would show it. */
export async function pdfPages(bytes: ArrayBuffer | Uint8Array): Promise<string[]> {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const document = await getDocument({ data, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await document.destroy();
  return pages;
}
