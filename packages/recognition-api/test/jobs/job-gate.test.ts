import { describe, expect, it } from 'vitest';
import { JobGate } from '../../src/jobs/job-gate.js';

describe('JobGate', () => {
  it('a claim made alone holds the others off until it says its document may share, then wakes them', () => {
    let opened = 0;
    const gate = new JobGate(() => opened++);
    const first = gate.enter()!;
    expect(first.alone).toBe(true);
    expect(gate.enter()).toBeNull(); // the first claim may take a document that must run alone
    first.isolated(false);
    expect(opened).toBe(1);
    const second = gate.enter()!;
    expect(second.alone).toBe(false);
    second.leave();
    first.leave();
    expect(gate.enter()!.alone).toBe(true);
  });

  it('while a document runs alone nobody else claims; leaving opens the gate', () => {
    let opened = 0;
    const gate = new JobGate(() => opened++);
    const solo = gate.enter()!;
    solo.isolated(true);
    expect(gate.enter()).toBeNull();
    expect(opened).toBe(0);
    solo.leave();
    solo.leave(); // idempotent
    expect(opened).toBe(1);
    expect(gate.enter()!.alone).toBe(true);
  });

  it('an opening that turned nobody away wakes nobody (idle workers must not wake each other for ever)', () => {
    let opened = 0;
    const gate = new JobGate(() => opened++);
    // Two idle workers taking turns: each empty claim is made alone and ends; nobody was waiting.
    for (let i = 0; i < 3; i++) gate.enter()!.leave();
    expect(opened).toBe(0);
    // One turned away while another claimed: woken once, then no more.
    const a = gate.enter()!;
    expect(gate.enter()).toBeNull();
    a.leave();
    expect(opened).toBe(1);
    gate.enter()!.leave();
    expect(opened).toBe(1);
  });
});
