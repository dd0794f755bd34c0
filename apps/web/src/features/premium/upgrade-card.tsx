import { Link } from 'react-router';

/**
 * product.md, Screens: what a non-premium user sees in place of a premium control. `compact` lays it out on one
 * row, for a panel footer where the full card would take the room of the content.
 */
export function UpgradeCard({
  to = '/subscribe',
  className = '',
  compact = false,
}: {
  to?: string;
  className?: string;
  compact?: boolean;
}) {
  return (
    <div className={`card border border-warning/40 bg-warning/10 ${className}`} data-testid="upgrade-card">
      <div className={compact ? 'card-body flex-row items-center gap-3 p-3' : 'card-body gap-2 p-4'}>
        <div className={compact ? 'min-w-0 flex-1' : 'contents'}>
          <h3 className={`card-title ${compact ? 'text-sm' : 'text-base'}`}>Premium Feature</h3>
          <p className={`${compact ? 'text-xs' : 'text-sm'} text-base-content/70`}>Upgrade to premium to unlock more features</p>
        </div>
        <div className={compact ? 'shrink-0' : 'card-actions justify-end'}>
          <Link to={to} className="btn btn-warning btn-sm">
            Upgrade
          </Link>
        </div>
      </div>
    </div>
  );
}
