/**
 * The Test environment's card reader on screen: each test card can be tapped, inserted or swiped,
 * and the reader's problems can be provoked. A USB swipe reader (keyboard wedge) works alongside.
 */
import { useEffect, useState } from 'react';
import type { CardBrand } from '../../../contract/cards.js';
import type { MessageId } from '../../../contract/i18n/catalogues.js';
import type { Translate } from '../../../contract/i18n/format.js';
import { TEST_PIN, type TestCardRule } from '../../../contract/test-cards.js';
import { tillsClient } from '../tills/tills-client.js';
import { useT } from '../ui/i18n.js';
import { BRAND_NAMES, TILL_TEST_CARDS, type PresentMethod, type TillTestCard } from './reader.js';
import { simulatedReader } from './till-store.js';

const METHODS: readonly PresentMethod[] = ['tap', 'insert', 'swipe'];
const METHOD_WORDS: Record<PresentMethod, MessageId> = {
  tap: 'till.testReader.tap',
  insert: 'till.testReader.insert',
  swipe: 'till.testReader.swipe',
};

/** The brand mark on a test card (a logo's letters, not words). */
const BRAND_CHIPS: Partial<Record<CardBrand, string>> = { visa: 'VISA', mastercard: 'MC' };

/** What a test card does, in a few words of the screens' language (contract/test-cards.ts has them in English). */
function behaviourText(t: Translate, card: TillTestCard): string {
  const rule: TestCardRule = card.rule;
  switch (rule.kind) {
    case 'approve':
      return t('till.testReader.approves');
    case 'always_pin':
      return t('till.testReader.alwaysPin');
    case 'decline':
      if (rule.code === '51') return t('till.testReader.noFunds', { code: rule.code });
      if (rule.code === '54') return t('till.testReader.expired', { code: rule.code });
      return t('till.testReader.declines', { code: rule.code });
    case 'error':
      return t('till.testReader.networkError');
    case 'slow_answer':
      return t('till.testReader.slow');
    case 'lost_answer':
      return t('till.testReader.lostAnswer');
    case 'declines_when_forwarded':
      return t('till.testReader.declinesForwarded');
    case 'challenge':
    case 'token_provisioning_fails':
      // Not offered at a till; should one be, its table label says what it does.
      return card.till.label;
  }
}

function spaced(pan: string): string {
  return pan.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export function SimulatedReaderPanel() {
  // The store-and-forward card only where it means something: a till joined to a shop's gateway.
  const [joined, setJoined] = useState(false);
  useEffect(() => {
    let live = true;
    void tillsClient
      .setup()
      .then((state) => live && setJoined(state.joined))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const cards = TILL_TEST_CARDS.filter((card) => !card.till.joinedOnly || joined);
  const t = useT();
  return (
    <section className="sim-reader" aria-labelledby="sim-reader-title">
      <div className="sim-reader-head">
        <h2 id="sim-reader-title">{t('till.testReader.title')}</h2>
        <span className="tag">{t('till.testReader.simulated')}</span>
      </div>
      <p className="sim-reader-note">{t('till.testReader.note', { pin: TEST_PIN })}</p>
      <ul className="sim-cards">
        {cards.map((card) => (
          <li key={card.number} className="sim-card">
            <span className="sim-card-label">
              <span className={`brand-chip brand-${card.brand}`} aria-hidden="true">
                {BRAND_CHIPS[card.brand] ?? BRAND_NAMES[card.brand]}
              </span>
              <span className="sim-card-text">
                <span className="sim-card-number">{spaced(card.number)}</span>
                <span className="sim-card-behaviour">{behaviourText(t, card)}</span>
              </span>
            </span>
            <span className="sim-card-actions">
              {METHODS.map((method) => (
                <button
                  key={method}
                  type="button"
                  className="button button-small"
                  aria-label={t('till.testReader.present', { method, brand: BRAND_NAMES[card.brand], number: card.number })}
                  onClick={() => simulatedReader.present(card.number, method)}
                >
                  {t(METHOD_WORDS[method])}
                </button>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <div className="sim-problems" role="group" aria-label={t('till.testReader.problems')}>
        <span className="sim-problems-label">{t('till.testReader.problemsLabel')}</span>
        <button
          type="button"
          className="button button-small button-quiet"
          onClick={() => simulatedReader.simulateProblem('removed_too_early')}
        >
          {t('till.testReader.removedEarly')}
        </button>
        <button
          type="button"
          className="button button-small button-quiet"
          onClick={() => simulatedReader.simulateProblem('multiple_cards')}
        >
          {t('till.testReader.twoCards')}
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => simulatedReader.simulateProblem('unreadable')}>
          {t('till.testReader.badRead')}
        </button>
      </div>
    </section>
  );
}
