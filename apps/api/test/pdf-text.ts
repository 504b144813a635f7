import { Worker } from 'node:worker_threads';

/**
 * The text of each page of a PDF, read back by Mozilla's PDF.js as a PDF reader would show it.
 *
 * PDF.js runs in a worker thread of its own: the build that runs on Node 20 (legacy) brings core-js, which replaces
 * globals there (JSON.stringify, with one that runs out of stack on deep values), and the test files of a Vitest
 * worker share their process (decision 028). A thread has globals of its own.
 */
export async function pdfPages(bytes: ArrayBuffer | Uint8Array): Promise<string[]> {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const reader = new Worker(new URL('./pdf-text.worker.mjs', import.meta.url), { workerData: data });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      reader.once('message', (pages: string[]) => resolve(pages));
      reader.once('error', reject);
      reader.once('exit', (code) => reject(new Error(`the PDF reader stopped (exit code ${code}) before answering`)));
    });
  } finally {
    await reader.terminate();
  }
}
