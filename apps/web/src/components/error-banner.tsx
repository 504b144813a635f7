import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

/** A failed load or save, in a banner a screen reader announces. */
export function ErrorBanner({ message, title }: { message: string; title?: string }) {
  return (
    <MessageBar intent="error" role="alert">
      <MessageBarBody>
        {title ? <MessageBarTitle>{title}</MessageBarTitle> : null}
        {message}
      </MessageBarBody>
    </MessageBar>
  );
}
