/** One HTTP answer read from a connection's raw bytes: its status line, its headers by lower-case name, its body. */
export interface RawAnswer {
  status: string;
  headers: Record<string, string>;
  body: string;
}

/** The answers a connection received, in order, from the text it read (several when the server answered twice). */
export function rawAnswers(received: string): RawAnswer[] {
  return received.split(/(?=HTTP\/1\.1 )/).map((answer) => {
    const end = answer.indexOf('\r\n\r\n');
    const [status = '', ...lines] = answer.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    return { status, headers, body: answer.slice(end + 4) };
  });
}
