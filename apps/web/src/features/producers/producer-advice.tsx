/**
 * The advisor's explanation on a producer card (a witness's newest miss, a validator's newest offline
 * report): the cause in words, extra evidence lines, and the backup node with how to switch to it.
 * RPC Pulse only explains; it never performs the switch.
 */
export function ProducerAdvice(props: {
  testId: string;
  summary: string;
  lines?: string[];
  backup: { howTo: string } | null;
}) {
  return (
    <div className="producer-advice" data-testid={props.testId}>
      <p className="small">{props.summary}</p>
      {(props.lines ?? []).map((line) => (
        <p key={line} className="small">
          {line}
        </p>
      ))}
      {props.backup ? <p className="small">Backup: {props.backup.howTo}</p> : null}
    </div>
  );
}
