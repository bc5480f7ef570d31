// What the desktop (or its absence) can do for the core. The Electron shell supplies these with
// shell.openExternal, app.setBadgeCount/Tray, login items and Notification; web mode supplies none, and the
// calls answer `opened: false`, `shown: false`, `supported: false` there.

export interface LaunchAtLogin {
  get(): Promise<boolean>;
  set(enabled: boolean): Promise<void>;
}

export interface DesktopHost {
  /** Opens a URL that already passed isSafeExternalUrl in the OS browser or mail client. */
  openExternal?(url: string): Promise<void>;
  /** Shows the unread count (dock/taskbar badge, tray); answers whether anything shows it. */
  setUnreadCount?(count: number): boolean;
  launchAtLogin?: LaunchAtLogin;
  /**
   * Raises an OS notification (plain text, already cleaned by `notificationText`); a click brings
   * the window to the front, then calls `onClick`. One with the `tag` of a notification still shown
   * replaces it. `onAction` is offered where the OS shows actions ("Mark read"). Answers whether one
   * was shown.
   */
  notify?(notification: NotificationRequest, onClick: () => void, onAction?: (action: 'markRead') => void): boolean;
  /** Takes the notification with this tag off the screen; answers whether there was one. */
  closeNotification?(tag: string): boolean;
}

export interface NotificationRequest {
  title: string;
  body: string;
  tag?: string;
  silent?: boolean;
}
