import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { ACTION_ITEM_OWNER_MAX, ACTION_ITEM_TEXT_MAX, type ActionItem, type ActionItemPatch } from '@mbox/shared/action-items';
import { dayKey } from '@mbox/shared/days';
import { formatMessageTime } from '@mbox/shared/format';
import { UNTITLED_MEETING } from '@mbox/shared/meeting';
import { lineLink } from '../meetings/line-link';
import { useUpdateActionItem } from './use-action-items';

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A due day (yyyy-MM-dd) as "Fri, Mar 8", with the year when it is not this one. */
export function dueLabel(day: string, today = dayKey(Date.now(), browserZone)): string {
  const sameYear = day.slice(0, 4) === today.slice(0, 4);
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(sameYear ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });
}

/** An open item whose due day has passed (in the browser's zone). */
export function isOverdue(item: Pick<ActionItem, 'status' | 'due'>, today = dayKey(Date.now(), browserZone)): boolean {
  return item.status === 'open' && item.due !== null && item.due < today;
}

interface EditFormProps {
  item: ActionItem;
  /** Owners offered as suggestions. */
  owners: readonly string[];
  onSave: (patch: ActionItemPatch) => void;
  onCancel: () => void;
  saving: boolean;
}

/** Inline editing: Enter saves (from any field), Escape cancels; the text field has focus first. */
function EditForm({ item, owners, onSave, onCancel, saving }: EditFormProps) {
  const id = useId();
  const [text, setText] = useState(item.text);
  const [owner, setOwner] = useState(item.owner);
  const [due, setDue] = useState(item.due ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || !owner.trim()) return;
    onSave({ text: text.trim(), owner: owner.trim(), due: due || null });
  };
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onCancel();
  };
  return (
    <form className="flex w-full flex-col gap-2" onSubmit={submit} onKeyDown={escape} aria-label="Edit action item" data-testid="action-item-edit">
      <label className="form-control w-full">
        <span className="label-text text-xs">Task</span>
        <input
          className="input input-sm w-full"
          value={text}
          maxLength={ACTION_ITEM_TEXT_MAX}
          required
          autoFocus
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <label className="form-control min-w-0 flex-1">
          <span className="label-text text-xs">Owner</span>
          <input
            className="input input-sm w-full"
            value={owner}
            maxLength={ACTION_ITEM_OWNER_MAX}
            required
            list={`${id}-owners`}
            onChange={(e) => setOwner(e.target.value)}
          />
          <datalist id={`${id}-owners`}>
            {owners.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </label>
        <label className="form-control">
          <span className="label-text text-xs">Due</span>
          <input type="date" className="input input-sm" value={due} onChange={(e) => setDue(e.target.value)} />
        </label>
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={saving || !text.trim() || !owner.trim()}>
          Save
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

interface ActionItemRowProps {
  item: ActionItem;
  /** Owners the edit form suggests; no Edit button when absent. */
  owners?: readonly string[];
  /** Show which meeting it is from (lists that mix meetings do it in their headings instead). */
  showMeeting?: boolean;
}

/**
 * One action item: a checkbox that marks it done, its owner, task and due day, the line it was read
 * from (opened highlighted in the transcript), and Edit.
 */
export function ActionItemRow({ item, owners, showMeeting = false }: ActionItemRowProps) {
  const id = useId();
  const update = useUpdateActionItem();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const done = item.status === 'done';
  const overdue = isOverdue(item);
  // Back to where the keyboard was once the editor has closed: Edit exists again only after that render.
  const returnFocus = useRef(false);
  const closeEditor = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButton.current?.focus();
  }, [editing]);
  const save = (patch: ActionItemPatch) => update.mutate({ id: item.id, ...patch }, { onSuccess: closeEditor });

  return (
    <li className="flex items-start gap-3 rounded-box px-2 py-2 hover:bg-base-200/60" data-testid="action-item" data-status={item.status}>
      <input
        id={`${id}-done`}
        type="checkbox"
        className="checkbox checkbox-sm mt-1"
        checked={done}
        disabled={update.isPending}
        onChange={(e) => update.mutate({ id: item.id, status: e.target.checked ? 'done' : 'open' })}
        aria-label={`Done: ${item.text}`}
      />
      {editing && owners ? (
        <EditForm item={item} owners={owners} onSave={save} onCancel={closeEditor} saving={update.isPending} />
      ) : (
        <div className="min-w-0 flex-1">
          <p className={`break-words ${done ? 'text-base-content/60 line-through' : ''}`}>
            <span className="font-semibold">{item.owner}:</span> {item.text}
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-base-content/70">
            {item.due && (
              <span className={overdue ? 'font-medium text-error' : ''} data-testid="action-item-due">
                Due {dueLabel(item.due)}
                {overdue && ' (overdue)'}
              </span>
            )}
            {showMeeting && (
              <Link to={`/${encodeURIComponent(item.meeting.id)}`} className="link link-hover">
                {item.meeting.title || UNTITLED_MEETING}
              </Link>
            )}
            {item.source && (
              <Link
                to={lineLink(item.meeting.id, item.source.messageId)}
                className="link"
                title="Open the line it came from in the transcript"
                data-testid="action-item-source"
              >
                {item.source.speaker} at {formatMessageTime(item.source.spokenAt)}
              </Link>
            )}
            {item.edited && <span className="badge badge-ghost badge-sm">Edited</span>}
          </div>
        </div>
      )}
      {owners && !editing && (
        <button
          ref={editButton}
          type="button"
          className="btn btn-ghost btn-xs"
          onClick={() => setEditing(true)}
          aria-label={`Edit: ${item.text}`}
        >
          Edit
        </button>
      )}
    </li>
  );
}
