/**
 * Class mode in the e2e tests: a presenter's page that creates a room on a room server, students'
 * pages (each in its own browser context: its own localStorage and saved runs, so its own seat)
 * that open the join link, and what the pages show of the room (src/app/room/*).
 */
import { type Browser, type BrowserContext, type Locator, type Page, expect } from '@playwright/test';
import { LabPage } from './lab';

/** The Class region and its parts, on a presenter's or a student's page. */
export class ClassView {
  lab: LabPage;
  constructor(public page: Page) {
    this.lab = new LabPage(page);
  }

  get panel(): Locator {
    return this.page.getByRole('region', { name: 'Class' });
  }
  get status(): Locator {
    return this.page.getByTestId('room-status');
  }
  get seats(): Locator {
    return this.page.getByTestId('room-seat');
  }
  seat(index: number): Locator {
    return this.page.locator(`[data-testid="room-seat"][data-seat="${index}"]`);
  }

  /** Every seat row's step and done, by seat index. */
  async seatSteps(): Promise<Record<number, { step: number; done: boolean; connected: boolean }>> {
    return this.page.evaluate(() => {
      const out: Record<number, { step: number; done: boolean; connected: boolean }> = {};
      for (const row of document.querySelectorAll('[data-testid="room-seat"]')) {
        const r = row as HTMLElement;
        out[Number(r.dataset.seat)] = { step: Number(r.dataset.step), done: r.dataset.done === 'true', connected: r.dataset.connected === 'true' };
      }
      return out;
    });
  }

  /**
   * Record every step each seat row shows from now on (a MutationObserver in the page: no step the
   * table shows between two polls is missed). Returns a reader of what was seen, per seat.
   */
  async recordSeatSteps(): Promise<() => Promise<Record<number, number[]>>> {
    await this.page.evaluate(() => {
      const seen: Record<number, number[]> = {};
      (window as unknown as { seatStepsSeen: Record<number, number[]> }).seatStepsSeen = seen;
      const read = () => {
        for (const row of document.querySelectorAll('[data-testid="room-seat"]')) {
          const r = row as HTMLElement;
          const list = (seen[Number(r.dataset.seat)] ??= []);
          const step = Number(r.dataset.step);
          if (list[list.length - 1] !== step) list.push(step);
        }
      };
      read();
      new MutationObserver(read).observe(document.querySelector('[data-testid="room-panel"]')!, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-step'] });
    });
    return () => this.page.evaluate(() => (window as unknown as { seatStepsSeen: Record<number, number[]> }).seatStepsSeen);
  }
}

export class Presenter extends ClassView {
  /** Open the lab on the wasm backend (fast, exact) with the quick preset. */
  static async open(page: Page): Promise<Presenter> {
    const p = new Presenter(page);
    await p.lab.open('?backend=wasm');
    await p.lab.choosePreset('quick');
    return p;
  }

  /** Class room, the server's address, (pairing), Create room: returns the join link. */
  /** Make a room on `serverUrl`; `plan`: what the create panel must say the room's seats will train, checked before Create. */
  async createRoom(serverUrl: string, { pairing = false, plan }: { pairing?: boolean; plan?: string } = {}): Promise<string> {
    await this.page.getByTestId('room-toggle').click();
    await expect(this.panel).toBeVisible();
    const field = this.page.getByTestId('room-server');
    // The panel first looks for a server on the page's own origin (a short probe), then fills its guess in.
    await expect(field).not.toHaveValue('', { timeout: 30_000 });
    await field.fill(serverUrl);
    if (pairing) await this.page.getByTestId('room-pairing').check();
    if (plan !== undefined) await expect(this.page.getByTestId('room-create-experiment')).toContainText(plan);
    await this.page.getByTestId('room-create').click();
    await expect(this.status).toHaveText('Online: room open, waiting for Start.', { timeout: 30_000 });
    const link = this.page.getByTestId('room-link');
    await expect(link).toHaveValue(/[?&]room=[A-Za-z0-9_-]{22}/);
    return link.inputValue();
  }

  async startForEverybody(): Promise<void> {
    await this.page.getByTestId('room-start').click();
    await expect(this.status).toHaveText('Online: room running.', { timeout: 30_000 });
  }

  /** Wait until the seats table shows `count` seats, every one done at `steps`. */
  async waitAllDone(count: number, steps: number, timeout = 240_000): Promise<void> {
    await expect(this.seats).toHaveCount(count, { timeout });
    await expect
      .poll(async () => Object.values(await this.seatSteps()).filter((s) => s.done && s.step === steps).length, { timeout, intervals: [500, 1000] })
      .toBe(count);
  }
}

export class Student extends ClassView {
  constructor(
    page: Page,
    readonly context: BrowserContext,
  ) {
    super(page);
  }

  /** A new student: its own browser context (own localStorage, own saved runs) opening the join link. */
  static async join(browser: Browser, link: string): Promise<Student> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const s = new Student(await context.newPage(), context);
    await s.open(link);
    return s;
  }

  /** Open (again) the join link in this student's context, on the wasm backend. */
  async open(link: string): Promise<void> {
    if (this.page.isClosed()) {
      this.page = await this.context.newPage();
      this.lab = new LabPage(this.page);
    }
    await this.page.goto(`${link}&backend=wasm`);
    await expect(this.page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
    await expect(this.lab.backendStatus).toHaveText('Backend: wasm', { timeout: 90_000 });
    await expect(this.panel).toBeVisible({ timeout: 30_000 });
  }

  get seatLine(): Locator {
    return this.page.getByTestId('room-seat-line');
  }

  /** The seat index and seed the page says it holds. */
  async seatAndSeed(): Promise<{ seat: number; seed: number }> {
    await expect(this.seatLine).toHaveText(/^You are seat \d+, seed \d+/, { timeout: 30_000 });
    const m = /^You are seat (\d+), seed (\d+)/.exec((await this.seatLine.textContent()) ?? '')!;
    return { seat: Number(m[1]), seed: Number(m[2]) };
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
