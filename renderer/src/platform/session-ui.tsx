// What session screens outside the session context need from the app shell: starting "add an
// account" from the header's switcher or the re-sign-in dialog.
import { createContext, useContext } from 'react';

export interface SessionUi {
  addAccount(): void;
}

export const SessionUiContext = createContext<SessionUi>({ addAccount: () => undefined });
export const useSessionUi = () => useContext(SessionUiContext);
