/**
 * The till's store: the model of till-model.ts, moved only by the transition table of
 * till-transitions.ts, and the effects the table asks for, run here: the gateway's calls (whose
 * answers come back as events), the one timer of the checks, and the end of the staff session.
 * The screens (till.tsx, approved.tsx) read the model and call the actions; each action is one
 * event (docs/decisions.md "The till's transition table (issue 37)").
 */
import { create } from 'zustand';
import { ApiError } from '../api/transport.js';
import { useSession } from '../session-store.js';
import { translate } from '../ui/i18n.js';
import type { ReaderEvent } from './card-read.js';
import { formatMoney } from './money.js';
import { createKeyboardWedgeReader, createSimulatedReader } from './reader.js';
import { INITIAL_MODEL, type Failure, type TillContext, type TillEffect, type TillEvent, type TillModel } from './till-model.js';
import { tillClient } from './till-client.js';
import { transition } from './till-transitions.js';

export { declineOf, type ApprovedSale, type Decline, type Said, type Sale, type TillPhase } from './till-model.js';

interface TillActions {
  keypad: (key: string) => void;
  setReference: (reference: string) => void;
  charge: () => void;
  cancelWaiting: () => void;
  readerEvent: (event: ReaderEvent) => void;
  submitPinBlock: (block: string) => void;
  cancelPin: () => void;
  retryPin: () => void;
  anotherCard: () => void;
  insertCard: () => void;
  otherPayment: () => void;
  newSale: () => void;
  /** A digit typed on a refusal's screen: the refusal goes, and the next amount starts with it. */
  nextAmount: (key: string) => void;
  /** The till's day was closed: what the till said of the day before goes. */
  dayClosed: () => void;
  checkAgain: () => void;
  stopChecking: () => void;
  tryAgain: () => void;
  /** At start (after a reload or restart): resolves the till's open attempt before a new sale. */
  recover: () => Promise<void>;
}

type TillState = TillModel & TillActions;

export const simulatedReader = createSimulatedReader();
export const wedgeReader = typeof window === 'undefined' ? undefined : createKeyboardWedgeReader(window);

/** What the table reads of the world, now. */
function contextNow(): TillContext {
  const { session, terminal } = useSession.getState();
  return {
    now: Date.now(),
    newKey: crypto.randomUUID(),
    orderSuffix: crypto.randomUUID().slice(0, 4).toUpperCase(),
    currency: session?.merchant.currency ?? null,
    terminal,
    money: (amount, currency) => formatMoney(amount, currency),
  };
}

/** A failed call as the table reads it. */
function failureOf(error: unknown): Failure {
  const apiError = error instanceof ApiError ? error : new ApiError('unexpected', translate('till.failed.somethingWrong'));
  return { kind: apiError.kind, message: apiError.message, status: apiError.status, code: apiError.errorCode, errors: apiError.errors };
}

type Dispatch = (event: TillEvent) => Promise<void>;

/** Runs the table's effects; a call's promise settles once its answer went back in as an event. */
function effectRunner(dispatch: Dispatch): (effect: TillEffect) => Promise<void> | undefined {
  let timer: number | undefined;
  const stopWaiting = () => {
    if (timer !== undefined) window.clearTimeout(timer);
    timer = undefined;
  };
  return (effect) => {
    switch (effect.type) {
      case 'recordAttempt':
        return tillClient.beginAttempt(effect.input).then(
          () => dispatch({ type: 'attemptRecorded', key: effect.key }),
          (error: unknown) => dispatch({ type: 'attemptRefused', key: effect.key, failure: failureOf(error) }),
        );
      case 'pay':
        return tillClient.pay(effect.request, effect.key).then(
          (response) => dispatch({ type: 'paid', key: effect.key, response }),
          (error: unknown) => dispatch({ type: 'payFailed', key: effect.key, failure: failureOf(error) }),
        );
      case 'resolve':
        return tillClient.resolveAttempt().then(
          (resolution) => dispatch({ type: 'resolved', resolution }),
          (error: unknown) => dispatch({ type: 'resolveFailed', failure: failureOf(error) }),
        );
      case 'closeAttempt':
        void tillClient.resolveAttempt().catch(() => undefined);
        return undefined;
      case 'findOpenAttempt':
        return tillClient.attempt().then(
          (attempt) => dispatch({ type: 'openAttempt', attempt }),
          () => undefined,
        );
      case 'wait':
        stopWaiting();
        timer = window.setTimeout(() => void dispatch({ type: effect.then }), effect.ms);
        return undefined;
      case 'stopWaiting':
        stopWaiting();
        return undefined;
      case 'endSession':
        useSession.getState().ended(translate(effect.message));
        return undefined;
    }
  };
}

export const useTill = create<TillState>()((set, get) => {
  const dispatch: Dispatch = async (event) => {
    const model = get();
    const { state, effects } = transition(model, event, contextNow());
    if (state !== model) set(state);
    await Promise.all(effects.map(run));
  };
  const run = effectRunner(dispatch);
  const send = (event: TillEvent) => void dispatch(event);

  return {
    ...INITIAL_MODEL,
    keypad: (key) => send({ type: 'keypad', key }),
    setReference: (reference) => send({ type: 'setReference', reference }),
    charge: () => send({ type: 'charge' }),
    cancelWaiting: () => send({ type: 'cancelWaiting' }),
    readerEvent: (event) => send({ type: 'reader', event }),
    submitPinBlock: (block) => send({ type: 'pinBlock', block }),
    cancelPin: () => send({ type: 'cancelPin' }),
    retryPin: () => send({ type: 'retryPin' }),
    anotherCard: () => send({ type: 'anotherCard' }),
    insertCard: () => send({ type: 'insertCard' }),
    otherPayment: () => send({ type: 'otherPayment' }),
    newSale: () => send({ type: 'newSale' }),
    nextAmount: (key) => send({ type: 'nextAmount', key }),
    dayClosed: () => send({ type: 'dayClosed' }),
    checkAgain: () => send({ type: 'checkAgain' }),
    stopChecking: () => send({ type: 'stopChecking' }),
    tryAgain: () => send({ type: 'tryAgain' }),
    recover: () => dispatch({ type: 'recover' }),
  };
});
