import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { whenDone } from './when-done.js';

/**
 * A real SMTP server on a loopback port for one test file: every message the product sends arrives in `received`,
 * parsed; `refuse(n)` answers the next n messages with 451 (try again later). Closed after the file's tests.
 */
export async function smtpInbox() {
  const received: ParsedMail[] = [];
  let refusing = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      if (refusing > 0) {
        refusing--;
        stream.resume();
        stream.on('end', () => done(Object.assign(new Error('451 try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  whenDone(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  return {
    received,
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    refuse: (count: number) => {
      refusing = count;
    },
    /** The messages to one address, oldest first. */
    to: (email: string) => received.filter((mail) => [mail.to].flat()[0]?.text === email),
  };
}
