// Screenshots an HTML file with headless Chromium's own command line (no npm package), to look at a
// rendered job summary (scripts/github-render.ts). The CLI captures a fixed window and cannot measure
// the page, so the page is captured in a tall window and the PNG is cut below its last row of content.
// Chromium is optional: callers check chromiumPath() first, and CI never needs it.
import { spawn } from 'node:child_process'
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { crc32, deflateSync, inflateSync } from 'node:zlib'

const NAMES = ['chromium', 'chromium-browser', 'google-chrome']
const TIMEOUT_MS = 30_000
const FIRST_HEIGHT = 4096
// Chromium's largest texture: taller windows fail to capture.
const MAX_HEIGHT = 16_384
// Blank space kept below the content, as the page's own padding is cut with the rest.
const BOTTOM_MARGIN = 24
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The Chromium to run: `$CHROMIUM`, else /usr/bin/chromium, else the first of its usual names on PATH. */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean)
  const candidates = ['/usr/bin/chromium', ...NAMES.flatMap((name) => dirs.map((dir) => join(dir, name)))]
  return candidates.find(isExecutable)
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Writes a PNG of `htmlFile`, `width` px wide (default 1000) and as tall as its content. The window
 * starts 4096 px tall and doubles (up to 16384 px) until a quarter of it is blank below the content,
 * which tells a page that fits from a blank gap at the bottom of a page that does not.
 */
export async function screenshot(htmlFile: string, pngFile: string, options: { width?: number } = {}): Promise<void> {
  const browser = chromiumPath()
  if (!browser) throw new Error('Chromium not found: install chromium or set CHROMIUM')
  const width = options.width ?? 1000
  for (let height = FIRST_HEIGHT; ; height *= 2) {
    const image = decodePng(await capture(browser, htmlFile, width, height))
    const bottom = lastContentRow(image) + 1
    if (bottom <= (image.height * 3) / 4 || height >= MAX_HEIGHT) {
      writeFileSync(pngFile, cropPng(image, Math.min(bottom + BOTTOM_MARGIN, image.height)))
      return
    }
  }
}

/** Runs Chromium once; its profile lives in a fresh temporary directory, removed afterwards. */
async function capture(browser: string, htmlFile: string, width: number, height: number): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'screenshot-'))
  const png = join(dir, 'shot.png')
  try {
    await run(browser, [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${join(dir, 'profile')}`,
      `--window-size=${width},${height}`,
      `--screenshot=${png}`,
      pathToFileURL(resolve(htmlFile)).href
    ])
    return readFileSync(png)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    // Its own process group, so a hung Chromium is killed with its renderer and GPU processes.
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)))
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      fail(new Error(`Chromium took longer than ${TIMEOUT_MS / 1000} s; killed`))
    }, TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      fail(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0) done()
      else fail(new Error(`Chromium exited with ${String(code)}: ${stderr.trim()}`))
    })
  })
}

/** An 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes): scanlines as stored and unfiltered. */
interface Image {
  width: number
  height: number
  header: Buffer
  /** Scanlines as stored: each a filter byte and the filtered bytes, `1 + width * channels` long. */
  raw: Buffer
  /** The same rows with the filters undone, to read pixels from. */
  rows: Buffer[]
  channels: number
}

function decodePng(png: Buffer): Image {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('Chromium did not write a PNG')
  const idat: Buffer[] = []
  let header: Buffer | undefined
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const data = png.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') header = data
    if (type === 'IDAT') idat.push(data)
    offset += 12 + length
  }
  if (!header) throw new Error('PNG without a header')
  const width = header.readUInt32BE(0)
  const height = header.readUInt32BE(4)
  const channels = { 2: 3, 6: 4 }[header.readUInt8(9)]
  if (header.readUInt8(8) !== 8 || channels === undefined || header.readUInt8(12) !== 0)
    throw new Error('unsupported PNG: expected 8-bit RGB or RGBA, not interlaced')
  const raw = inflateSync(Buffer.concat(idat))
  const stride = 1 + width * channels
  const rows: Buffer[] = []
  let previous = Buffer.alloc(stride - 1)
  for (let y = 0; y < height; y++) {
    const row = Buffer.from(raw.subarray(y * stride + 1, (y + 1) * stride))
    unfilter(raw.readUInt8(y * stride), row, previous, channels)
    rows.push(row)
    previous = row
  }
  return { width, height, header, raw, rows, channels }
}

/** Undoes one scanline's PNG filter in place (https://www.w3.org/TR/png/#9Filters). */
function unfilter(filter: number, row: Buffer, previous: Buffer, channels: number): void {
  if (filter > 4) throw new Error(`unknown PNG filter ${filter}`)
  if (filter === 0) return
  for (let i = 0; i < row.length; i++) {
    const left = i >= channels ? row.readUInt8(i - channels) : 0
    const up = previous.readUInt8(i)
    const upLeft = i >= channels ? previous.readUInt8(i - channels) : 0
    const predictor =
      filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, upLeft)
    row[i] = (row.readUInt8(i) + predictor) & 0xff
  }
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft
  const toLeft = Math.abs(estimate - left)
  const toUp = Math.abs(estimate - up)
  const toUpLeft = Math.abs(estimate - upLeft)
  if (toLeft <= toUp && toLeft <= toUpLeft) return left
  return toUp <= toUpLeft ? up : upLeft
}

/** The last row holding anything but the background, taken as the colour of the bottom-left pixel. */
function lastContentRow(image: Image): number {
  const background = image.rows.at(-1)
  if (!background) return -1
  return image.rows.findLastIndex((row) => row.some((byte, i) => byte !== background.readUInt8(i % image.channels)))
}

/** The first `height` rows as a PNG. A scanline's filter refers only to rows above it: they are reused as stored. */
function cropPng(image: Image, height: number): Buffer {
  const header = Buffer.from(image.header)
  header.writeUInt32BE(height, 4)
  const scanlines = image.raw.subarray(0, height * (1 + image.width * image.channels))
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines)),
    chunk('IEND', Buffer.alloc(0))
  ])
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}
