// PDF.js in a thread of its own (see pdf-text.ts): the polyfills of its legacy build change this thread's globals only.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const document = await getDocument({ data: workerData, disableFontFace: true, useSystemFonts: false, verbosity: 0 })
  .promise;
const pages = [];
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
parentPort.postMessage(pages);
