import { useEffect, useRef, useState, type RefObject } from 'react';
import { messageOf } from '../api/client';

const FRAME_MS = 80; // ≥ 10 decodes a second, leaving the phone's other core for the page

type Detector = { detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]> };
/** The bundled decoder, loaded only when a camera or a photo first needs it. */
export const detector = async (): Promise<Detector> => (await import('./decoder')).makeDetector();

/** The camera picked on this device, else the back one at a size a QR code reads well at. */
async function openCamera(deviceId: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('The camera needs a secure page (HTTPS or this computer): use "Scan a photo" or the desk’s pairing QR code');
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: deviceId ? { deviceId: { exact: deviceId } } : { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
  });
}

/** Decodes the video's frames, one every FRAME_MS at most, until `stopped()`. */
async function decodeFrames(element: HTMLVideoElement, decode: Detector, stopped: () => boolean, onCode: (code: string) => void) {
  while (!stopped()) {
    const started = performance.now();
    if (element.readyState >= 2) {
      try {
        for (const found of await decode.detect(element)) onCode(found.rawValue);
      } catch {
        /* a frame that could not be read; the next one will */
      }
    }
    await new Promise((r) => setTimeout(r, Math.max(0, FRAME_MS - (performance.now() - started))));
  }
}

const cameraProblem = (e: unknown) => (e instanceof DOMException && e.name === 'NotAllowedError' ? 'Camera permission was refused: allow it in the browser’s site settings' : messageOf(e));

/**
 * While `on`, the camera's video in `video` is decoded continuously and each code read goes to
 * `onCode`; says which cameras there are, whether the camera has a torch, and what went wrong.
 */
export function useCamera(on: boolean, deviceId: string | null, video: RefObject<HTMLVideoElement | null>, onCode: (code: string) => void) {
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([]);
  const [torch, setTorch] = useState<{ supported: boolean; on: boolean }>({ supported: false, on: false });
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const track = useRef<MediaStreamTrack | null>(null);
  const callback = useRef(onCode);
  callback.current = onCode;

  useEffect(() => {
    if (!on) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    (async () => {
      try {
        stream = await openCamera(deviceId);
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
        await decodeFrames(element, decode, () => stopped, (code) => callback.current(code));
      } catch (e) {
        if (!stopped) setError(cameraProblem(e));
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

  return { cameras, torch, running, error, setError, toggleTorch };
}
