// Temporal's time-skipping test server (part of the Java SDK), pinned and installed into .tools/ on
// first use. The SDK's own installer downloads it from temporal.download, which this project's
// machines cannot reach; Maven Central serves the same server as a jar. A small wrapper gives the
// SDK the executable it expects (`<wrapper> <port>`, `server.executable.type: 'existing-path'`).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEST_SERVER_VERSION = '1.38.0';
const DIR = path.join(ROOT, '.tools', `temporal-test-server-${TEST_SERVER_VERSION}`);
const WRAPPER = path.join(DIR, 'temporal-test-server');
const JAR = `temporal-test-server-${TEST_SERVER_VERSION}.jar`;

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>temporal-test-server-install</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${TEST_SERVER_VERSION}</version></dependency>
  </dependencies>
</project>
`;

// The SDK gives the port first; time skipping is the reason this server is used at all.
const WRAPPER_SCRIPT = `#!/bin/sh
exec java -XX:+UseSerialGC -Xmx768m -cp "$(dirname "$0")/lib/*" io.temporal.testserver.TestServer "$@" --enable-time-skipping
`;

function log(message) {
  process.stderr.write(`[install-test-server] ${message}\n`);
}

const installed = () => existsSync(WRAPPER) && existsSync(path.join(DIR, 'lib', JAR));

export function ensureTestServer() {
  if (installed()) return WRAPPER;
  if (spawnSync('java', ['-version']).status !== 0) throw new Error('the time-skipping test server needs Java 17 or later on PATH');
  log(`resolving io.temporal:temporal-test-server:${TEST_SERVER_VERSION} from Maven Central with mvn (about 40 MB)...`);
  // Beside the target, so the finished folder is renamed into place, never copied across file systems.
  mkdirSync(path.dirname(DIR), { recursive: true });
  const work = mkdtempSync(path.join(path.dirname(DIR), 'download-test-server-'));
  try {
    writeFileSync(path.join(work, 'pom.xml'), POM);
    execFileSync('mvn', ['-q', '-B', 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${path.join(work, 'lib')}`], { cwd: work, stdio: 'inherit' });
    if (!readdirSync(path.join(work, 'lib')).includes(JAR)) throw new Error(`${JAR} was not resolved`);
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(WRAPPER, WRAPPER_SCRIPT);
    chmodSync(WRAPPER, 0o755);
    renameSync(path.join(work, 'lib'), path.join(DIR, 'lib'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`installed ${WRAPPER}`);
  return WRAPPER;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${ensureTestServer()}\n`);
}
