/**
 * The reason of a refund, asked the same way at the till and in the back office: a common one or
 * the staff member's own words. It travels as the refund's merchant_reference (so at most 35 of the
 * characters that field takes) and lands in the refund's audit entry. A common reason is shown in
 * the screens' language but sent as its English words: merchant_reference takes A-Z only (no
 * umlauts or accents), and the shop's records name each common reason the same way whoever chose it.
 */
import { MERCHANT_REFERENCE_PATTERN } from '../../../contract/constants.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import { translate, useT } from '../ui/i18n.js';

/** Reasons offered; "Other" asks for the staff member's own words. */
export const REFUND_REASONS = ['Returned goods', 'Faulty item', 'Wrong amount charged', 'Customer cancelled'] as const;
export const OTHER_REASON = 'Other';

type Choice = (typeof REFUND_REASONS)[number] | typeof OTHER_REASON;

/** Each choice in the screens' language. */
const CHOICE_NAMES: Record<Choice, MessageId> = {
  'Returned goods': 'sales.reason.returnedGoods',
  'Faulty item': 'sales.reason.faultyItem',
  'Wrong amount charged': 'sales.reason.wrongAmount',
  'Customer cancelled': 'sales.reason.customerCancelled',
  Other: 'sales.reason.other',
};

const CHOICES: readonly Choice[] = [...REFUND_REASONS, OTHER_REASON];

const isChoice = (choice: string): choice is Choice => choice in CHOICE_NAMES;

/** The reason as it is sent: the choice, or the words typed for "Other". */
export function reasonText(choice: string, otherText: string): string {
  return (choice === OTHER_REASON ? otherText : choice).trim();
}

/** The reason as staff read it: a common one in the screens' language, or the words typed for "Other". */
export function reasonLabel(choice: string, otherText: string): string {
  return choice !== OTHER_REASON && isChoice(choice) ? translate(CHOICE_NAMES[choice]) : reasonText(choice, otherText);
}

/** What is wrong with the reason, or null. */
export function reasonProblem(choice: string, reason: string): string | null {
  if (!choice) return translate('sales.reason.missing');
  if (!MERCHANT_REFERENCE_PATTERN.test(reason)) return translate('sales.reason.invalid');
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
  const t = useT();
  const noteId = `${name}-note`;
  return (
    <fieldset className="refund-reasons" aria-describedby={noteId}>
      <legend className="field-label">{t('sales.reason')}</legend>
      <div className="refund-reason-options">
        {CHOICES.map((option) => (
          <label key={option} className="refund-reason">
            <input type="radio" name={name} value={option} checked={choice === option} onChange={() => onChoice(option)} />
            <span>{t(CHOICE_NAMES[option])}</span>
          </label>
        ))}
      </div>
      {choice === OTHER_REASON && (
        <label className="field refund-reason-other">
          <span className="field-label">{t('sales.reason.own')}</span>
          <input
            className="input"
            maxLength={35}
            autoComplete="off"
            value={otherText}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => onOtherText(event.target.value)}
          />
        </label>
      )}
      <span id={noteId} className={problem ? 'field-error' : 'field-note'}>
        {problem ?? t('sales.reason.note')}
      </span>
    </fieldset>
  );
}
