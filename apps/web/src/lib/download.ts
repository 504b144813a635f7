import { useState } from 'react';
import { StepUpRequiredError } from './api-client.js';
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
 * `fallback` is what to say when the failure has no message of its own. A download resolves to its failure (null
 * when saved); a step-up refusal is not shown, as the tab is already on its way to the new sign-in.
 */
export function useDownload(fallback: string) {
  const api = useApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (key: string, path: string, name: string): Promise<unknown> => {
    setBusy(key);
    setError(null);
    try {
      saveFile(await (await api()).download(path), name);
      return null;
    } catch (failure) {
      if (!(failure instanceof StepUpRequiredError)) setError(errorText(failure, fallback));
      return failure;
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, download };
}
