/**
 * Audio recording for the composer (core section 4 "Audio recording", section 9): idle, recording,
 * then sent or cancelled. MediaRecorder captures the microphone; the result is encoded to 128 kbps
 * mono mp3 with lamejs (falling back to the recorder's own format, webm or ogg, where the browser
 * cannot decode it). Recordings under AUDIO_MIN_BYTES are dropped by the caller.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

const MP3_KBPS = 128;
const MP3_BLOCK = 1152;

/** Encodes `blob` (any format the browser decodes) as a 128 kbps mono mp3. */
export async function encodeMp3(blob: Blob): Promise<Blob> {
  const Ctx =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) throw new Error('no AudioContext');
  const context = new Ctx();
  try {
    const audio = await context.decodeAudioData(await blob.arrayBuffer());
    const { Mp3Encoder } = await import('@breezystack/lamejs');
    const encoder = new Mp3Encoder(1, audio.sampleRate, MP3_KBPS);
    const channels = Array.from({ length: audio.numberOfChannels }, (_, i) => audio.getChannelData(i));
    const samples = new Int16Array(audio.length);
    for (let i = 0; i < audio.length; i++) {
      let sum = 0;
      for (const channel of channels) sum += channel[i] ?? 0;
      const value = Math.max(-1, Math.min(1, sum / channels.length));
      samples[i] = value < 0 ? value * 0x8000 : value * 0x7fff;
    }
    const parts: Uint8Array[] = [];
    for (let i = 0; i < samples.length; i += MP3_BLOCK) {
      const chunk = encoder.encodeBuffer(samples.subarray(i, i + MP3_BLOCK));
      if (chunk.length > 0) parts.push(new Uint8Array(chunk));
    }
    const end = encoder.flush();
    if (end.length > 0) parts.push(new Uint8Array(end));
    return new Blob(parts as BlobPart[], { type: 'audio/mpeg' });
  } finally {
    void context.close();
  }
}

/** A finished recording as the file to upload. */
export async function recordingToFile(blob: Blob): Promise<File> {
  const stamp = Date.now();
  try {
    const mp3 = await encodeMp3(blob);
    return new File([mp3], `audio-${stamp}.mp3`, { type: 'audio/mpeg' });
  } catch {
    const type = blob.type || 'audio/webm';
    const ext = type.includes('ogg') ? 'ogg' : 'webm';
    return new File([blob], `audio-${stamp}.${ext}`, { type });
  }
}

/** The recorder state: `start`, `cancel` (discard), `stop` (resolves with the recording). */
export function useAudioRecorder() {
  const [recording, setRecording] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  const timerRef = useRef<ReturnType<typeof setInterval> | null>(null);

  const release = useCallback(() => {
    if (timerRef.current) clearInterval(timerRef.current);
    timerRef.current = null;
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
    recorderRef.current = null;
    setRecording(false);
    setSeconds(0);
  }, []);

  useEffect(
    () => () => {
      if (recorderRef.current && recorderRef.current.state !== 'inactive') recorderRef.current.stop();
      release();
    },
    [release],
  );

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
      throw new Error('unsupported');
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    streamRef.current = stream;
    chunksRef.current = [];
    const recorder = new MediaRecorder(stream);
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunksRef.current.push(event.data);
    };
    recorderRef.current = recorder;
    recorder.start();
    setSeconds(0);
    setRecording(true);
    timerRef.current = setInterval(() => setSeconds((s) => s + 1), 1000);
  }, []);

  const cancel = useCallback(() => {
    const recorder = recorderRef.current;
    if (recorder) {
      recorder.ondataavailable = null;
      if (recorder.state !== 'inactive') recorder.stop();
    }
    chunksRef.current = [];
    release();
  }, [release]);

  const stop = useCallback(
    () =>
      new Promise<Blob>((resolve, reject) => {
        const recorder = recorderRef.current;
        if (!recorder) {
          reject(new Error('not recording'));
          return;
        }
        recorder.onstop = () => {
          const blob = new Blob(chunksRef.current, { type: recorder.mimeType || 'audio/webm' });
          chunksRef.current = [];
          release();
          resolve(blob);
        };
        recorder.stop();
      }),
    [release],
  );

  return { recording, seconds, start, cancel, stop };
}
