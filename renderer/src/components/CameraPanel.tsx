import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/client';
import { detector, useCamera } from '../scanner/useCamera';

const CAMERA_ON = 'tourdesk.camera';
const CAMERA_ID = 'tourdesk.cameraId';

/**
 * Continuous camera scanning: the back camera by default, a picker when there are several, the
 * torch where the camera has one, and a photo of a ticket when there is no usable camera.
 */
export function CameraPanel({ onCode }: { onCode(code: string, source: 'camera' | 'typed'): void }) {
  const [on, setOn] = useState(() => localStorage.getItem(CAMERA_ON) === 'on');
  const [deviceId, setDeviceId] = useState<string | null>(() => localStorage.getItem(CAMERA_ID));
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => localStorage.setItem(CAMERA_ON, on ? 'on' : 'off'), [on]);
  const { cameras, torch, running, error, setError, toggleTorch } = useCamera(on, deviceId, video, (code) => onCode(code, 'camera'));

  async function scanPhoto(file: File) {
    try {
      const found = await (await detector()).detect(await createImageBitmap(file));
      if (!found.length) setError('No code found in this photo: hold the ticket flat and closer');
      else {
        setError(null);
        onCode(found[0].rawValue, 'typed');
      }
    } catch (e) {
      setError(messageOf(e));
    }
  }

  const pick = (id: string | null) => {
    if (id) localStorage.setItem(CAMERA_ID, id);
    else localStorage.removeItem(CAMERA_ID);
    setDeviceId(id);
  };
  return (
    <div className="camera" aria-label="Camera">
      {on && <video ref={video} muted playsInline aria-label="Camera view" className={running ? 'live' : ''} />}
      <div className="row">
        <button type="button" className={on ? 'secondary' : ''} onClick={() => setOn(!on)}>
          {on ? 'Stop camera' : 'Start camera'}
        </button>
        {on && cameras.length > 1 && <CameraPicker cameras={cameras} deviceId={deviceId} onPick={pick} />}
        {on && torch.supported && (
          <button type="button" className="secondary" onClick={() => void toggleTorch()} aria-pressed={torch.on}>
            {torch.on ? 'Torch off' : 'Torch on'}
          </button>
        )}
        <label className="file button secondary">
          Scan a photo
          <input type="file" accept="image/*" capture="environment" onChange={(e) => e.target.files?.[0] && void scanPhoto(e.target.files[0])} />
        </label>
      </div>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Which of the device's cameras to use ("Back camera": whichever faces away). */
function CameraPicker({ cameras, deviceId, onPick }: { cameras: MediaDeviceInfo[]; deviceId: string | null; onPick(id: string | null): void }) {
  return (
    <select
      aria-label="Camera to use"
      value={deviceId ?? ''}
      onChange={(e) => {
        onPick(e.target.value || null);
        e.target.blur(); // back to listening for the wedge scanner
      }}
    >
      <option value="">Back camera</option>
      {cameras.map((c, i) => (
        <option key={c.deviceId} value={c.deviceId}>
          {c.label || `Camera ${i + 1}`}
        </option>
      ))}
    </select>
  );
}
