import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/client';

const CAMERA_ON = 'tourdesk.camera';
const CAMERA_ID = 'tourdesk.cameraId';
const FRAME_MS = 80; // ≥ 10 decodes a second, leaving the phone's other core for the page

type Detector = { detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]> };
const detector = async (): Promise<Detector> => (await import('../scanner/decoder')).makeDetector();

/**
 * Continuous camera scanning: the back camera by default, a picker when there are several, the
 * torch where the camera has one, and a photo of a ticket when there is no usable camera.
 */
export function CameraPanel({ onCode }: { onCode(code: string, source: 'camera' | 'typed'): void }) {
  const [on, setOn] = useState(() => localStorage.getItem(CAMERA_ON) === 'on');
  const [deviceId, setDeviceId] = useState<string | null>(() => localStorage.getItem(CAMERA_ID));
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [torch, setTorch] = useState<{ supported: boolean; on: boolean }>({ supported: false, on: false });
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const track = useRef<MediaStreamTrack | null>(null);
  const callback = useRef(onCode);
  callback.current = onCode;

  useEffect(() => {
    localStorage.setItem(CAMERA_ON, on ? 'on' : 'off');
    if (!on) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('The camera needs a secure page (HTTPS or this computer): use "Scan a photo" or the desk’s pairing QR code');
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: deviceId ? { deviceId: { exact: deviceId } } : { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
        });
        if (stopped) return;
        const element = video.current!;
        element.srcObject = stream;
        await element.play();
        track.current = stream.getVideoTracks()[0] ?? null;
        const capabilities = (track.current?.getCapabilities?.() ?? {}) as { torch?: boolean };
        setTorch({ supported: Boolean(capabilities.torch), on: false });
        setCameras((await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput'));
        const decode = await detector();
        setRunning(true);
        setError(null);
        while (!stopped) {
          const started = performance.now();
          if (element.readyState >= 2) {
            try {
              for (const found of await decode.detect(element)) callback.current(found.rawValue, 'camera');
            } catch {
              /* a frame that could not be read; the next one will */
            }
          }
          await new Promise((r) => setTimeout(r, Math.max(0, FRAME_MS - (performance.now() - started))));
        }
      } catch (e) {
        if (!stopped) setError(e instanceof DOMException && e.name === 'NotAllowedError' ? 'Camera permission was refused: allow it in the browser’s site settings' : messageOf(e));
      }
    })();
    return () => {
      stopped = true;
      setRunning(false);
      track.current = null;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [on, deviceId]);

  async function toggleTorch() {
    if (!track.current) return;
    const next = !torch.on;
    try {
      await track.current.applyConstraints({ advanced: [{ torch: next } as MediaTrackConstraintSet] });
      setTorch({ supported: true, on: next });
      setError(null);
    } catch {
      // The button keeps saying what the torch really is.
      setError(`The torch could not be switched ${next ? 'on' : 'off'}`);
    }
  }

  async function scanPhoto(file: File) {
    try {
      const found = await (await detector()).detect(await createImageBitmap(file));
      if (!found.length) setError('No code found in this photo: hold the ticket flat and closer');
      else {
        setError(null);
        callback.current(found[0].rawValue, 'typed');
      }
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <div className="camera" aria-label="Camera">
      {on && <video ref={video} muted playsInline aria-label="Camera view" className={running ? 'live' : ''} />}
      <div className="row">
        <button type="button" className={on ? 'secondary' : ''} onClick={() => setOn(!on)}>
          {on ? 'Stop camera' : 'Start camera'}
        </button>
        {on && cameras.length > 1 && (
          <select
            aria-label="Camera to use"
            value={deviceId ?? ''}
            onChange={(e) => {
              const id = e.target.value || null;
              if (id) localStorage.setItem(CAMERA_ID, id);
              else localStorage.removeItem(CAMERA_ID);
              setDeviceId(id);
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
        )}
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
