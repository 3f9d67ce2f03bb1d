// The table's sounds (issue 41 item 5), made in the page with Web Audio: no sound file is
// downloaded. A card played is a short snap of filtered noise, a shuffle a run of them, your turn
// a two-note chime, a trick won a soft rising pair. They are on by default at a low volume; one
// tap on the speaker mutes them, and the choice is remembered in this browser (localStorage).
import { h, store } from "/static/util.js";
import { t } from "/static/i18n.js";
import { icon } from "/static/icons.js";

const MUTED = "blot.sound.muted";
// The loudest any sound plays (of 1): low, a table is not a slot machine.
const VOLUME = 0.18;

let context = null;
let master = null;
let noise = null;
let played = 0;

export function muted() {
  return store.getItem(MUTED) === "1";
}

export function setMuted(on) {
  store.setItem(MUTED, on ? "1" : "0");
  if (on && context) context.suspend().catch(() => {});
}

// How many sounds this page made, and its AudioContext's state ("none" before the first one).
export function stats() {
  return { played, state: context ? context.state : "none" };
}

function audio() {
  if (muted()) return null;
  try {
    if (!context) {
      context = new AudioContext();
      master = context.createGain();
      master.gain.value = VOLUME;
      master.connect(context.destination);
      const length = Math.floor(context.sampleRate * 0.2);
      noise = context.createBuffer(1, length, context.sampleRate);
      const data = noise.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = Math.random() * 2 - 1;
    }
    // a browser starts a page's audio suspended until the player has touched it
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  } catch {
    return null; // no Web Audio here: the table stays quiet
  }
}

// A snap of noise through a band-pass filter at ``at`` seconds from now.
function snap(ac, at, freq, length, level) {
  const src = ac.createBufferSource();
  src.buffer = noise;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  const gain = ac.createGain();
  const start = ac.currentTime + at;
  gain.gain.setValueAtTime(level, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  src.connect(filter).connect(gain).connect(master);
  src.start(start);
  src.stop(start + length + 0.02);
}

// A sine note of ``freq`` Hz at ``at`` seconds from now.
function note(ac, at, freq, length, level) {
  const osc = ac.createOscillator();
  osc.type = "sine";
  osc.frequency.value = freq;
  const gain = ac.createGain();
  const start = ac.currentTime + at;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(level, start + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(master);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function play(make) {
  const ac = audio();
  if (!ac) return;
  try {
    make(ac);
    played++;
  } catch { /* a browser without this node: quiet */ }
}

export const sounds = {
  card: () => play((ac) => snap(ac, 0, 2400, 0.07, 0.9)),
  shuffle: () => play((ac) => {
    for (let i = 0; i < 14; i++) snap(ac, i * 0.045 + Math.random() * 0.01, 1800 + Math.random() * 1200, 0.05, 0.5);
  }),
  turn: () => play((ac) => { note(ac, 0, 660, 0.22, 0.7); note(ac, 0.13, 880, 0.3, 0.6); }),
  trick: () => play((ac) => { note(ac, 0, 392, 0.16, 0.45); note(ac, 0.09, 523, 0.22, 0.4); }),
};

// The speaker in the table's bar: one tap mutes or unmutes (``redraw`` draws the bar again).
export function muteButton(redraw) {
  const off = muted();
  return h("button", {
    class: "icon sound-toggle", "data-testid": "sound-toggle", "aria-pressed": off ? "true" : "false",
    title: t(off ? "sound_unmute" : "sound_mute"), "aria-label": t(off ? "sound_unmute" : "sound_mute"),
    onclick: () => { setMuted(!off); if (off) sounds.turn(); redraw(); },
  }, icon(off ? "muted" : "sound"));
}
