/**
 * The reason of a refund, asked the same way at the till and in the back office: a common one or
 * the staff member's own words. It travels as the refund's merchant_reference (so at most 35 of the
 * characters that field takes) and lands in the refund's audit entry.
 */
import { MERCHANT_REFERENCE_PATTERN } from '../../../contract/constants.js';

/** Reasons offered; "Other" asks for the staff member's own words. */
export const REFUND_REASONS = ['Returned goods', 'Faulty item', 'Wrong amount charged', 'Customer cancelled'] as const;
export const OTHER_REASON = 'Other';

/** The reason as it is sent: the choice, or the words typed for "Other". */
export function reasonText(choice: string, otherText: string): string {
  return (choice === OTHER_REASON ? otherText : choice).trim();
}

/** What is wrong with the reason, or null. */
export function reasonProblem(choice: string, reason: string): string | null {
  if (!choice) return 'Choose why the money goes back.';
  if (!MERCHANT_REFERENCE_PATTERN.test(reason)) return "Describe the reason in up to 35 letters, digits, spaces and / - ? ( ) : . , ' +";
  return null;
}

interface RefundReasonFieldProps {
  /** The radio group's name; `${name}-note` is the id of the note under it. */
  name: string;
  choice: string;
  otherText: string;
  problem: string | null;
  onChoice: (choice: string) => void;
  onOtherText: (text: string) => void;
}

export function RefundReasonField({ name, choice, otherText, problem, onChoice, onOtherText }: RefundReasonFieldProps) {
  const noteId = `${name}-note`;
  return (
    <fieldset className="refund-reasons" aria-describedby={noteId}>
      <legend className="field-label">Reason</legend>
      <div className="refund-reason-options">
        {[...REFUND_REASONS, OTHER_REASON].map((option) => (
          <label key={option} className="refund-reason">
            <input type="radio" name={name} value={option} checked={choice === option} onChange={() => onChoice(option)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
      {choice === OTHER_REASON && (
        <label className="field refund-reason-other">
          <span className="field-label">Reason in your words</span>
          <input className="input" maxLength={35} autoComplete="off" value={otherText} aria-invalid={problem ? true : undefined} onChange={(event) => onOtherText(event.target.value)} />
        </label>
      )}
      <span id={noteId} className={problem ? 'field-error' : 'field-note'}>
        {problem ?? 'Kept with the refund and in the audit log.'}
      </span>
    </fieldset>
  );
}
