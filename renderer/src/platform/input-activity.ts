// The agent's own input (keys, pointer, wheel), for background work that gives way to it: the
// search index's build runs between the agent's actions rather than beside them. One page, one
// record of when the agent last did something: a passive listener per input kind, installed on
// first use and kept for the page's life (it only notes a time).

export interface InputActivity {
  /** Milliseconds since the agent's last key, click, touch or scroll (Infinity: none yet). */
  sinceLast(): number;
  /** Input is waiting for the main thread now (Chromium's `isInputPending`; false where absent). */
  pending(): boolean;
}

const KINDS = ['keydown', 'keyup', 'pointerdown', 'pointerup', 'wheel', 'touchstart'] as const;

let lastInput = -Infinity;
let installed = false;

function install() {
  if (installed || typeof addEventListener !== 'function') return;
  installed = true;
  const note = () => {
    lastInput = performance.now();
  };
  for (const kind of KINDS) addEventListener(kind, note, { capture: true, passive: true });
}

type Scheduling = { isInputPending?: () => boolean };

/** This page's input. */
export const pageInput: InputActivity = {
  sinceLast() {
    install();
    return performance.now() - lastInput;
  },
  pending() {
    install();
    const scheduling = (globalThis.navigator as { scheduling?: Scheduling } | undefined)?.scheduling;
    return scheduling?.isInputPending?.() ?? false;
  },
};
