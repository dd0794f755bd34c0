import type { FormEvent } from 'react';
import { MAX_ASK_QUESTION_LENGTH, questionSchema } from '@mbox/shared/ask';
import { MIN_QUESTION_LENGTH } from '@mbox/shared/ui-messages';

/** A question is sent once the API would take it (long enough once trimmed). */
export function isAskable(question: string): boolean {
  return questionSchema.safeParse(question).success;
}

interface QuestionFormProps {
  question: string;
  onChange: (question: string) => void;
  onSend: (question: string) => void;
  /** An answer is streaming: nothing more is sent until it ends. */
  answering: boolean;
  placeholder: string;
  label: string;
  submitLabel: string;
  /** The meeting screen's panel uses the small size. */
  small?: boolean;
  autoFocus?: boolean;
}

/** The question field and its button, of the Ask panel and of the Ask all meetings page. */
export function QuestionForm({ question, onChange, onSend, answering, placeholder, label, submitLabel, small = false, autoFocus }: QuestionFormProps) {
  const tooShort = !isAskable(question);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSend(question);
  };
  return (
    <form className="flex gap-2" onSubmit={submit}>
      <input
        type="text"
        className={`input min-w-0 flex-1 ${small ? 'input-sm' : ''}`}
        placeholder={placeholder}
        aria-label={label}
        value={question}
        maxLength={MAX_ASK_QUESTION_LENGTH}
        autoFocus={autoFocus}
        onChange={(e) => onChange(e.target.value)}
      />
      <button
        type="submit"
        className={`btn btn-primary ${small ? 'btn-sm' : ''}`}
        disabled={tooShort || answering}
        title={tooShort ? `Questions need at least ${MIN_QUESTION_LENGTH} characters` : undefined}
      >
        {submitLabel}
      </button>
    </form>
  );
}
