// The browser's Notification API replaced in a page (installed before any app script): granted,
// recording every notification (title, body, tag, the page's clock when made, closed) and keeping
// the objects so a test can click one. `focused: false` tells the page the window does not have
// the agent's attention (as when the agent is in another app), so notifications go to the OS path.
export interface CapturedNotification {
  title: string;
  body: string;
  tag: string;
  /** Date.now() in the page when it was made. */
  at: number;
  closed: boolean;
}

export const notificationCapture = (focused: boolean) => `
  globalThis.__name = globalThis.__name || ((f) => f);
  window.__shown = [];
  window.__notes = [];
  window.__focused = ${focused};
  Document.prototype.hasFocus = function () { return window.__focused; };
  class RecordingNotification {
    static permission = 'granted';
    static requestPermission() { return Promise.resolve('granted'); }
    constructor(title, options = {}) {
      this.record = { title, body: options.body ?? '', tag: options.tag ?? '', at: Date.now(), closed: false };
      window.__shown.push(this.record);
      window.__notes.push(this);
      this.onclick = null;
    }
    close() { this.record.closed = true; }
  }
  window.Notification = RecordingNotification;
`;
