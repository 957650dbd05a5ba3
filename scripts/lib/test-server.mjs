// Temporal's time-skipping test server (part of the Java SDK), pinned and installed into .tools/ on
// first use. The SDK's own installer downloads it from temporal.download, which this project's
// machines cannot reach; Maven Central serves the same server as a jar. A small wrapper gives the
// SDK the executable it expects (`<wrapper> <port>`, `server.executable.type: 'existing-path'`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEST_SERVER_VERSION = '1.38.0';
const DIR = path.join(ROOT, '.tools', `temporal-test-server-${TEST_SERVER_VERSION}`);
const WRAPPER = path.join(DIR, 'temporal-test-server');
const JAR = `temporal-test-server-${TEST_SERVER_VERSION}.jar`;
const ARCHIVE = path.join(DIR, 'classes.jsa');

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>temporal-test-server-install</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${TEST_SERVER_VERSION}</version></dependency>
  </dependencies>
</project>
`;

// The SDK gives the port first; time skipping is the reason this server is used at all. The SDK
// waits 5 s for the server to listen, which a JVM loading these jars misses on a busy machine (4.5 s
// seen at a load of 19 on 2 cores); the class-data archive made at install brings that to under 2 s.
// The client compiler alone (TieredStopAtLevel=1): the optimising one spent about half of the
// server's CPU compiling code that a run of the model test does not live long enough to repay
// (100 interleavings: 37-44 CPU-seconds in four servers with it, 21-22 without; docs/decisions.md).
const WRAPPER_SCRIPT = `#!/bin/sh
dir="$(dirname "$0")"
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xmx768m -XX:SharedArchiveFile="$dir/classes.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -cp "$dir/lib/*" io.temporal.testserver.TestServer "$@" --enable-time-skipping
`;

function log(message) {
  process.stderr.write(`[install-test-server] ${message}\n`);
}

// A wrapper written by an earlier version of this script is written anew.
const installed = () => existsSync(WRAPPER) && readFileSync(WRAPPER, 'utf8') === WRAPPER_SCRIPT && existsSync(path.join(DIR, 'lib', JAR)) && existsSync(ARCHIVE);

const freePort = () => new Promise((resolve, reject) => {
  const server = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
  server.on('error', reject);
});

/** Starts the server once with class archiving on, until it listens, then stops it: the JVM writes the archive as it exits. */
async function archiveClasses() {
  const port = await freePort();
  const java = spawn('java', ['-XX:+UseSerialGC', `-XX:ArchiveClassesAtExit=${ARCHIVE}`, '-cp', `${path.join(DIR, 'lib')}/*`, 'io.temporal.testserver.TestServer', String(port), '--enable-time-skipping'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => java.on('exit', resolve));
  for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((r) => setTimeout(r, 200))) {
    const listening = await new Promise((resolve) => net.connect(port, '127.0.0.1').on('connect', function () { this.destroy(); resolve(true); }).on('error', () => resolve(false)));
    if (listening) break;
  }
  java.kill('SIGTERM');
  await exited;
}

export async function ensureTestServer() {
  if (installed()) return WRAPPER;
  if (existsSync(path.join(DIR, 'lib', JAR))) {
    if (!existsSync(ARCHIVE)) await archiveClasses();
    writeFileSync(WRAPPER, WRAPPER_SCRIPT);
    chmodSync(WRAPPER, 0o755);
    return WRAPPER;
  }
  if (spawnSync('java', ['-version']).status !== 0) throw new Error('the time-skipping test server needs Java 17 or later on PATH');
  log(`resolving io.temporal:temporal-test-server:${TEST_SERVER_VERSION} from Maven Central with mvn (about 40 MB)...`);
  // Beside the target, so the finished folder is renamed into place, never copied across file systems.
  mkdirSync(path.dirname(DIR), { recursive: true });
  const work = mkdtempSync(path.join(path.dirname(DIR), 'download-test-server-'));
  try {
    writeFileSync(path.join(work, 'pom.xml'), POM);
    // Maven's output goes to stderr: this script's stdout is the installed path, which the model test reads.
    execFileSync('mvn', ['-q', '-B', '-Dstyle.color=never', 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${path.join(work, 'lib')}`], { cwd: work, stdio: ['ignore', 2, 2] });
    if (!readdirSync(path.join(work, 'lib')).includes(JAR)) throw new Error(`${JAR} was not resolved`);
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(WRAPPER, WRAPPER_SCRIPT);
    chmodSync(WRAPPER, 0o755);
    renameSync(path.join(work, 'lib'), path.join(DIR, 'lib'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log('archiving the classes the server loads (faster starts)...');
  await archiveClasses();
  log(`installed ${WRAPPER}`);
  return WRAPPER;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await ensureTestServer()}\n`);
}
