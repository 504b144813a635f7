/**
 * Signs out of a companion website by loading its logout page in a hidden frame.
 * Resolves true when the page loaded, false when it did not within the time-out.
 */
export function logoutInFrame(url: string, name: string, timeoutMs: number, parent: HTMLElement = document.body) {
  return new Promise<boolean>((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = `Sign out of ${name}`;
    const finish = (loaded: boolean) => {
      clearTimeout(timer);
      frame.remove();
      resolve(loaded);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    frame.addEventListener('load', () => finish(true), { once: true });
    frame.addEventListener('error', () => finish(false), { once: true });
    frame.src = url;
    parent.appendChild(frame);
  });
}
