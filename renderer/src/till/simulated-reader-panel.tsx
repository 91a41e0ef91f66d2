/**
 * The Test environment's card reader on screen: each test card can be tapped, inserted or swiped,
 * and the reader's problems can be provoked. A USB swipe reader (keyboard wedge) works alongside.
 */
import { useEffect, useState } from 'react';
import { TEST_PIN } from '../../../contract/test-cards.js';
import { tillsClient } from '../tills/tills-client.js';
import { BRAND_NAMES, TILL_TEST_CARDS, type PresentMethod } from './reader.js';
import { simulatedReader } from './till-store.js';

const METHODS: readonly { method: PresentMethod; label: string }[] = [
  { method: 'tap', label: 'Tap' },
  { method: 'insert', label: 'Insert' },
  { method: 'swipe', label: 'Swipe' },
];

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
  return (
    <section className="sim-reader" aria-labelledby="sim-reader-title">
      <div className="sim-reader-head">
        <h2 id="sim-reader-title">Test card reader</h2>
        <span className="tag">Simulated</span>
      </div>
      <p className="sim-reader-note">Every test card&rsquo;s PIN is {TEST_PIN}. A USB swipe reader works too.</p>
      <ul className="sim-cards">
        {cards.map((card) => (
          <li key={card.number} className="sim-card">
            <span className="sim-card-label">
              <span className={`brand-chip brand-${card.brand}`} aria-hidden="true">
                {card.brand === 'visa' ? 'VISA' : 'MC'}
              </span>
              <span className="sim-card-text">
                <span className="sim-card-number">{spaced(card.number)}</span>
                <span className="sim-card-behaviour">{card.till.label}</span>
              </span>
            </span>
            <span className="sim-card-actions">
              {METHODS.map(({ method, label }) => (
                <button
                  key={method}
                  type="button"
                  className="button button-small"
                  aria-label={`${label} ${BRAND_NAMES[card.brand]} ${card.number}`}
                  onClick={() => simulatedReader.present(card.number, method)}
                >
                  {label}
                </button>
              ))}
            </span>
          </li>
        ))}
      </ul>
      <div className="sim-problems" role="group" aria-label="Reader problems">
        <span className="sim-problems-label">Problems:</span>
        <button type="button" className="button button-small button-quiet" onClick={() => simulatedReader.simulateProblem('removed_too_early')}>
          Removed early
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => simulatedReader.simulateProblem('multiple_cards')}>
          Two cards
        </button>
        <button type="button" className="button button-small button-quiet" onClick={() => simulatedReader.simulateProblem('unreadable')}>
          Bad read
        </button>
      </div>
    </section>
  );
}
