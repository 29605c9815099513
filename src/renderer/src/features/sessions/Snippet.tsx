/** A search snippet with its matches (between « and », as the store marks them) highlighted; plain text, no markup. */
export function Snippet({ text }: { text: string }) {
  const parts = text.split(/(«[^»]*»)/g).filter(Boolean);
  return (
    <span className="session-snippet">
      {parts.map((part, index) =>
        part.startsWith('«') && part.endsWith('»') ? <mark key={index}>{part.slice(1, -1)}</mark> : part,
      )}
    </span>
  );
}
