import { useState } from 'react';
import { useApi } from './api-context.js';
import { errorText } from './error-text.js';

/** Hands bytes to the browser as a file to save (the API's files need the token, so a plain link cannot fetch them). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Downloads files from the API: which one is on its way (its key), and the message of the last one that failed.
 * `fallback` is what to say when the failure has no message of its own.
 */
export function useDownload(fallback: string) {
  const api = useApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (key: string, path: string, name: string) => {
    setBusy(key);
    setError(null);
    try {
      saveFile(await (await api()).download(path), name);
    } catch (failure) {
      setError(errorText(failure, fallback));
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, download };
}
