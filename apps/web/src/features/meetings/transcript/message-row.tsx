import { memo, useState, type ReactNode } from 'react';
import { formatMessageTime } from '@mbox/shared/format';
import type { Mark, Message } from '@mbox/shared/meeting';
import { MAX_COMMENT_LENGTH } from '@mbox/shared/message';
import { CommentIcon, FlagIcon, PencilIcon, SparklesIcon, StarIcon } from './icons';
import { SpeakerAvatar } from './speaker-avatar';

export type TextView = 'optimized' | 'origin';

/**
 * Where a line's actions are: `floating` in a wide transcript under a mouse (over the line's right end,
 * on hover or focus); elsewhere (touch screens, a narrow panel, where it would cover the speaker's name)
 * one toolbar under the line the reader tapped or focused, `shown`, and none on the other lines.
 */
export type ToolbarPlacement = 'floating' | 'shown' | 'none';

export interface MessageRowProps {
  message: Message;
  /** First line of a run of one speaker: shows the avatar, name and time. */
  startsRun: boolean;
  view: TextView;
  editing: boolean;
  optimizing: boolean;
  toolbar: ToolbarPlacement;
  /** The reader tapped, clicked or focused this line. */
  onSelect(key: string): void;
  onToggleMark(message: Message, mark: Mark): void;
  onView(key: string, view: TextView): void;
  onEdit(key: string | null): void;
  onSaveComment(message: Message, comment: string): void;
  onOptimize(message: Message): void;
}

const MARK_BUTTONS: { mark: Mark; on: string; off: string; icon: (filled: boolean) => ReactNode; tint: string }[] = [
  { mark: 'important', on: 'Unmark important', off: 'Mark important', icon: (f) => <StarIcon filled={f} />, tint: 'text-warning' },
  { mark: 'flagged', on: 'Unflag', off: 'Flag', icon: (f) => <FlagIcon filled={f} />, tint: 'text-error' },
  { mark: 'commented', on: 'Unmark commented', off: 'Mark commented', icon: (f) => <CommentIcon filled={f} />, tint: 'text-info' },
];

function bubbleTone(marks: readonly Mark[]): string {
  if (marks.includes('important')) return 'bg-warning/15 ring-1 ring-warning/60';
  if (marks.includes('flagged')) return 'bg-error/10 ring-1 ring-error/40';
  return 'bg-base-200';
}

/**
 * One transcript line: bubble, marks, optional comment and AI-fixed text, and its actions (placed as
 * `toolbar` says). A line whose toolbar is not shown can be focused, which selects it.
 */
export const MessageRow = memo(function MessageRow(props: MessageRowProps) {
  const { message, startsRun, view, editing, optimizing, toolbar, onSelect } = props;
  const fixed = message.aiFixed !== null && message.aiFixed !== '';
  const shown = fixed && view === 'optimized' ? message.aiFixed! : message.text;
  const time = formatMessageTime(message.spokenAt);

  return (
    <div
      className={`group relative flex gap-3 rounded-lg px-3 pb-1 hover:bg-base-200/40 focus-within:bg-base-200/40 ${startsRun ? 'pt-3' : 'pt-0.5'}`}
      data-testid="transcript-message"
      data-speaker={message.user}
      data-key={message.key}
      data-marks={message.marks.join(' ')}
      data-selected={toolbar === 'shown' || undefined}
      tabIndex={toolbar === 'none' ? 0 : undefined}
      onClick={() => onSelect(message.key)}
      onFocus={(event) => {
        if (event.target === event.currentTarget) onSelect(message.key);
      }}
    >
      <div className="w-9 shrink-0">
        {startsRun ? (
          <SpeakerAvatar name={message.user} url={message.userAvatar} />
        ) : (
          <time
            className="block pt-1.5 text-right text-[10px] leading-none text-base-content/40 opacity-0 group-hover:opacity-100"
            dateTime={new Date(message.spokenAt).toISOString()}
          >
            {time.replace(/\s?[AP]M$/, '')}
          </time>
        )}
      </div>
      <div className="min-w-0 flex-1">
        {startsRun && (
          <div className="mb-0.5 flex items-baseline gap-2">
            <span className="truncate text-sm font-semibold">{message.user}</span>
            <time className="shrink-0 text-xs text-base-content/70" dateTime={new Date(message.spokenAt).toISOString()} data-testid="message-time">
              {time}
            </time>
          </div>
        )}
        <div className="flex items-start gap-1.5">
          <div
            className={`min-w-0 whitespace-pre-wrap break-words rounded-2xl px-3 py-1.5 text-[15px] leading-relaxed text-base-content ${bubbleTone(message.marks)} ${message.final ? '' : 'opacity-75'} ${optimizing ? 'animate-pulse' : ''}`}
            data-testid="message-text"
            data-version={fixed ? view : 'origin'}
          >
            {shown}
          </div>
          <MarkBadges marks={message.marks} />
        </div>
        {fixed && <VersionToggle messageKey={message.key} view={view} onView={props.onView} />}
        {editing ? (
          <CommentEditor
            initial={message.comment}
            onCancel={() => props.onEdit(null)}
            onSave={(comment) => {
              props.onSaveComment(message, comment);
              props.onEdit(null);
            }}
          />
        ) : (
          message.comment && (
            <div
              className="mt-1.5 flex max-w-prose items-start gap-2 rounded-lg border-l-2 border-info bg-info/10 px-3 py-1.5 text-sm"
              data-testid="message-comment"
            >
              <span className="mt-0.5 text-info">
                <CommentIcon />
              </span>
              <p className="min-w-0 flex-1 whitespace-pre-wrap break-words">{message.comment}</p>
              <button type="button" className="btn btn-ghost btn-xs btn-square" aria-label="Edit comment" onClick={() => props.onEdit(message.key)}>
                <PencilIcon />
              </button>
            </div>
          )
        )}
        {toolbar !== 'none' && <Toolbar {...props} fixed={fixed} />}
      </div>
    </div>
  );
});

function MarkBadges({ marks }: { marks: readonly Mark[] }) {
  if (marks.length === 0) return null;
  return (
    <span className="flex shrink-0 gap-0.5 pt-2" aria-label={`Marked ${marks.join(', ')}`}>
      {MARK_BUTTONS.filter((b) => marks.includes(b.mark)).map((b) => (
        <span key={b.mark} className={b.tint} title={b.mark}>
          {b.icon(true)}
        </span>
      ))}
    </span>
  );
}

function VersionToggle({ messageKey, view, onView }: { messageKey: string; view: TextView; onView: MessageRowProps['onView'] }) {
  const option = (value: TextView, label: string) => (
    <button
      type="button"
      className={`join-item btn btn-xs ${view === value ? 'btn-primary' : 'btn-ghost border-base-300'}`}
      aria-pressed={view === value}
      onClick={() => onView(messageKey, value)}
    >
      {label}
    </button>
  );
  return (
    <div className="join mt-1" role="group" aria-label="Text version">
      {option('optimized', 'Optimized')}
      {option('origin', 'Origin')}
    </div>
  );
}

function Toolbar(props: MessageRowProps & { fixed: boolean }) {
  const { message, fixed, optimizing } = props;
  return (
    <div
      className={`z-10 flex w-fit items-center gap-0.5 rounded-lg border border-base-300 bg-base-100 p-0.5 shadow-sm ${
        props.toolbar === 'floating'
          ? 'absolute top-0 right-3 opacity-0 group-hover:opacity-100 group-focus-within:opacity-100'
          : 'mt-1'
      }`}
      role="toolbar"
      aria-label="Message actions"
    >
      {MARK_BUTTONS.map((b) => {
        const on = message.marks.includes(b.mark);
        return (
          <button
            key={b.mark}
            type="button"
            className={`btn btn-ghost btn-xs btn-square ${on ? b.tint : 'text-base-content/70'}`}
            aria-label={on ? b.on : b.off}
            aria-pressed={on}
            title={on ? b.on : b.off}
            onClick={() => props.onToggleMark(message, b.mark)}
          >
            {b.icon(on)}
          </button>
        );
      })}
      <button
        type="button"
        className="btn btn-ghost btn-xs btn-square text-base-content/70"
        aria-label={message.comment ? 'Edit comment' : 'Add comment'}
        title={message.comment ? 'Edit comment' : 'Add comment'}
        onClick={() => props.onEdit(message.key)}
      >
        <PencilIcon />
      </button>
      <span className="mx-0.5 h-4 w-px bg-base-300" />
      <button
        type="button"
        className="btn btn-ghost btn-xs gap-1 text-primary"
        disabled={optimizing}
        onClick={() => props.onOptimize(message)}
      >
        {optimizing ? <span className="loading loading-spinner loading-xs" /> : <SparklesIcon />}
        {fixed ? 'Re-optimize' : 'Optimize'}
      </button>
    </div>
  );
}

function CommentEditor({ initial, onSave, onCancel }: { initial: string; onSave(comment: string): void; onCancel(): void }) {
  const [text, setText] = useState(initial);
  return (
    <form
      className="mt-1.5 flex max-w-prose flex-col gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(text);
      }}
    >
      <textarea
        className="textarea textarea-sm w-full"
        rows={2}
        autoFocus
        aria-label="Comment"
        placeholder="Add a comment…"
        maxLength={MAX_COMMENT_LENGTH}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            onSave(text);
          }
        }}
      />
      <div className="flex gap-1.5">
        <button type="submit" className="btn btn-primary btn-xs">
          Save
        </button>
        <button type="button" className="btn btn-ghost btn-xs" onClick={onCancel}>
          Cancel
        </button>
        {initial && (
          <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => onSave('')}>
            Remove
          </button>
        )}
      </div>
    </form>
  );
}
