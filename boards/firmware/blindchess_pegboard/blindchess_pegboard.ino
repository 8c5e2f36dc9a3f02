// blindchess peg-board firmware: 64 reed contacts through eight 74HC165 shift
// registers, reported in the blindchess line protocol (boards/PROTOCOL.md).
//
//   device -> host:  "L e2*3B\n"  "P e4*21\n"  "S FFFF00000000FFFF*73\n"  "I ...*HH\n"
//   host -> device:  '?' snapshot, 'V' identification (CR/LF ignored)
//
// Wiring: see WIRING.md. A contact is closed (input LOW) when a peg, carrying a
// small magnet, sits in the hole. Every change must be stable for DEBOUNCE_MS
// before it is reported, so a peg wiggling in its hole sends nothing.

#include <Arduino.h>

static const char IDENT[] = "blindchess-pegboard 1.0";
static const uint8_t PIN_LOAD = 8;     // 74HC165 SH/LD (all chips), active low
static const uint8_t PIN_CLOCK = 13;   // 74HC165 CLK (all chips)
static const uint8_t PIN_DATA = 12;    // QH of the chip for rank 8 (end of the chain)
static const uint16_t DEBOUNCE_MS = 30;
static const uint16_t SCAN_EVERY_MS = 2;
static const uint8_t STABLE_SCANS = DEBOUNCE_MS / SCAN_EVERY_MS;

static uint8_t stableRank[8];          // bit f of stableRank[r] = square (file f, rank r+1) occupied
static uint8_t pending[64];            // scans the raw reading has differed from the stable state
static uint32_t lastScan = 0;

// Read all 64 contacts. The chain is rank 8 first: the first bit shifted out is
// h8 (input H of the rank-8 chip), then g8 ... a8, then h7 ... a1.
static void readRaw(uint8_t raw[8]) {
  digitalWrite(PIN_LOAD, LOW);         // latch the inputs
  delayMicroseconds(5);
  digitalWrite(PIN_LOAD, HIGH);
  for (int8_t rank = 7; rank >= 0; rank--) {
    uint8_t bits = 0;
    for (int8_t file = 7; file >= 0; file--) {
      if (digitalRead(PIN_DATA) == LOW) bits |= (uint8_t)(1 << file);   // closed contact = peg present
      digitalWrite(PIN_CLOCK, HIGH);
      delayMicroseconds(1);
      digitalWrite(PIN_CLOCK, LOW);
    }
    raw[rank] = bits;
  }
}

static void hex2(uint8_t value, char *out) {
  static const char DIGITS[] = "0123456789ABCDEF";
  out[0] = DIGITS[value >> 4];
  out[1] = DIGITS[value & 0x0F];
}

// Send one line with its checksum: the XOR of all bytes before '*'.
static void sendLine(const char *body) {
  uint8_t sum = 0;
  for (const char *p = body; *p; p++) sum ^= (uint8_t)*p;
  char tail[4] = {'*', 0, 0, '\n'};
  hex2(sum, tail + 1);
  Serial.print(body);
  Serial.write((const uint8_t *)tail, 4);
}

static void sendSquare(char kind, uint8_t square) {
  char line[5] = {kind, ' ', (char)('a' + (square & 7)), (char)('1' + (square >> 3)), 0};
  sendLine(line);
}

static void sendSnapshot() {
  char line[19];
  line[0] = 'S';
  line[1] = ' ';
  for (uint8_t i = 0; i < 8; i++) hex2(stableRank[7 - i], line + 2 + 2 * i);   // most significant first
  line[18] = 0;
  sendLine(line);
}

static void sendIdent() {
  char line[sizeof(IDENT) + 2] = {'I', ' '};
  memcpy(line + 2, IDENT, sizeof(IDENT));
  sendLine(line);
}

void setup() {
  pinMode(PIN_LOAD, OUTPUT);
  pinMode(PIN_CLOCK, OUTPUT);
  pinMode(PIN_DATA, INPUT);
  digitalWrite(PIN_LOAD, HIGH);
  digitalWrite(PIN_CLOCK, LOW);
  Serial.begin(115200);
  readRaw(stableRank);                 // the state at power-up is the first stable state
  memset(pending, 0, sizeof(pending));
  sendIdent();
  sendSnapshot();
}

void loop() {
  while (Serial.available() > 0) {
    int command = Serial.read();
    if (command == '?') sendSnapshot();
    else if (command == 'V') sendIdent();
  }
  uint32_t now = millis();
  if ((uint32_t)(now - lastScan) < SCAN_EVERY_MS) return;
  lastScan = now;
  uint8_t raw[8];
  readRaw(raw);
  for (uint8_t square = 0; square < 64; square++) {
    uint8_t rank = square >> 3, mask = (uint8_t)(1 << (square & 7));
    bool isOn = raw[rank] & mask, wasOn = stableRank[rank] & mask;
    if (isOn == wasOn) {
      pending[square] = 0;
      continue;
    }
    if (++pending[square] < STABLE_SCANS) continue;
    pending[square] = 0;
    if (isOn) stableRank[rank] |= mask;
    else stableRank[rank] &= (uint8_t)~mask;
    sendSquare(isOn ? 'P' : 'L', square);
  }
}
