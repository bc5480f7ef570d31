// How much of a message's files main has handed to the service (`messages.uploadProgress` events,
// for this message's client id). Nothing shows until the first event: a message waiting to go
// (offline) says so in its own words.
import { useEffect, useState } from 'react';
import { useSession } from '../platform/session';

export function UploadProgress({ clientId }: { clientId: string }) {
  const { bridge } = useSession();
  const [progress, setProgress] = useState<{ sent: number; total: number }>();
  useEffect(() => bridge.on('messages.uploadProgress', (p) => p.clientId === clientId && setProgress({ sent: p.sent, total: p.total })), [bridge, clientId]);
  if (!progress || progress.total === 0) return null;
  const percent = Math.min(100, Math.round((progress.sent / progress.total) * 100));
  return (
    <div className="upload-progress">
      <progress value={percent} max={100} aria-label="Uploading files" />
      <span className="muted">{percent === 100 ? 'Uploaded; waiting for the service…' : `Uploading ${percent}%`}</span>
    </div>
  );
}
