import { participantBadges } from '@mbox/shared/participants';

/** product.md, Limits: 5 badges (names cut at 20 characters + '...'), the rest in '+N' with a tooltip. */
export function ParticipantBadges({ users }: { users: readonly string[] }) {
  const { shown, hidden, more } = participantBadges(users);
  if (shown.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-1" data-testid="participants">
      {shown.map((name, index) => (
        <span key={`${index}-${name}`} className="badge badge-ghost badge-sm">
          {name}
        </span>
      ))}
      {more && (
        <span className="tooltip tooltip-bottom" data-tip={hidden.join(', ')}>
          <span className="badge badge-neutral badge-sm" aria-label={`${hidden.length} more: ${hidden.join(', ')}`}>
            {more}
          </span>
        </span>
      )}
    </div>
  );
}
