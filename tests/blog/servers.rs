//! Real servers for the publish tests, each started on 127.0.0.1 on a free
//! port by the test that needs it and stopped by its PID when dropped:
//! Debian's OpenSSH server (`sshd -D`, git over SSH and SFTP, with a host
//! key and a user key made here), moto's S3 server (`make test-deps`
//! installs it in `.cache/moto`), and bare git repositories.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wait_for_port(port: u16, child: &mut Child, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("{what} stopped at once ({status})");
        }
        assert!(Instant::now() < deadline, "{what} did not listen on port {port} within 60 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs a command, failing the test with its output if it fails.
pub fn run(command: &mut Command) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        output.status.success(),
        "{command:?} failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    run(Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Other")
        .env("GIT_AUTHOR_EMAIL", "other@example.com")
        .env("GIT_COMMITTER_NAME", "Other")
        .env("GIT_COMMITTER_EMAIL", "other@example.com"))
}

/// A bare repository in a temp folder.
pub fn bare_repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("site.git");
    run(Command::new("git").args(["init", "--bare", "-q", "-b", "main"]).arg(&repo));
    (dir, repo)
}

/// OpenSSH's server on a free port, for the user running the tests, with
/// keys of its own: a host key (written into `known_hosts`), a user key
/// without a passphrase and one with the passphrase `PASSPHRASE`.
pub struct Sshd {
    pub dir: tempfile::TempDir,
    pub port: u16,
    pub user: String,
    child: Child,
}

pub const PASSPHRASE: &str = "correct horse battery staple";

impl Sshd {
    pub fn start() -> Sshd {
        let sshd =
            ["/usr/sbin/sshd", "/usr/bin/sshd"].into_iter().find(|p| Path::new(p).exists()).unwrap_or_else(|| {
                panic!("no sshd: install Debian's openssh-server (make test-deps)");
            });
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let keygen = |file: &str, passphrase: &str| {
            run(Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", passphrase, "-C", "hanji-test", "-f"])
                .arg(d.join(file)));
        };
        keygen("host_key", "");
        keygen("user_key", "");
        keygen("locked_key", PASSPHRASE);
        let authorized: String =
            ["user_key.pub", "locked_key.pub"].iter().map(|f| std::fs::read_to_string(d.join(f)).unwrap()).collect();
        std::fs::write(d.join("authorized_keys"), authorized).unwrap();
        let user = run(Command::new("id").arg("-un")).trim().to_string();
        let port = free_port();
        let sftp_server = ["/usr/lib/openssh/sftp-server", "/usr/libexec/openssh/sftp-server"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .unwrap_or("internal-sftp");
        let config = format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {host}\nPidFile {pid}\nAuthorizedKeysFile {keys}\n\
             StrictModes no\nUsePAM no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n\
             PermitRootLogin prohibit-password\nAllowUsers {user}\nSubsystem sftp {sftp_server}\nLogLevel ERROR\n",
            host = d.join("host_key").display(),
            pid = d.join("sshd.pid").display(),
            keys = d.join("authorized_keys").display(),
        );
        std::fs::write(d.join("sshd_config"), config).unwrap();
        // sshd wants its privilege separation folder (as root).
        let _ = std::fs::create_dir_all("/run/sshd");
        let mut child = Command::new(sshd)
            .arg("-D")
            .arg("-E")
            .arg(d.join("sshd.log"))
            .arg("-f")
            .arg(d.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        wait_for_port(port, &mut child, "sshd");
        let host_key = std::fs::read_to_string(d.join("host_key.pub")).unwrap();
        let mut parts = host_key.split_whitespace();
        let line = format!("[127.0.0.1]:{port} {} {}\n", parts.next().unwrap(), parts.next().unwrap());
        std::fs::write(d.join("known_hosts"), line).unwrap();
        Sshd { dir, port, user, child }
    }

    pub fn known_hosts(&self) -> PathBuf {
        self.dir.path().join("known_hosts")
    }

    pub fn key(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// moto's S3 server, with the access key `AKIAHANJITEST` (its secret
/// `SECRET`) made through IAM and then required: a request signed with
/// another secret is refused, as S3 refuses it.
pub struct S3 {
    pub port: u16,
    pub access_key: String,
    pub secret: String,
    child: Child,
}

const MOTO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/.cache/moto/bin");

impl S3 {
    pub fn start(bucket: &str) -> S3 {
        let server = Path::new(MOTO).join("moto_server");
        assert!(server.exists(), "no moto in {MOTO}: run make test-deps");
        let port = free_port();
        // The first requests (setting up the user, its key and the bucket)
        // need no signature; every one after them does.
        let mut child = Command::new(&server)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .env("INITIAL_NO_AUTH_ACTION_COUNT", "4")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_for_port(port, &mut child, "moto_server");
        let setup = format!(
            r#"
import boto3, json
kw = dict(endpoint_url="http://127.0.0.1:{port}", region_name="us-east-1",
          aws_access_key_id="setup", aws_secret_access_key="setup")
iam = boto3.client("iam", **kw)
iam.create_user(UserName="hanji")
iam.put_user_policy(UserName="hanji", PolicyName="all", PolicyDocument=json.dumps(
    {{"Version": "2012-10-17", "Statement": [{{"Effect": "Allow", "Action": "*", "Resource": "*"}}]}}))
key = iam.create_access_key(UserName="hanji")["AccessKey"]
boto3.client("s3", **kw).create_bucket(Bucket="{bucket}")
print(key["AccessKeyId"], key["SecretAccessKey"])
"#
        );
        let out = run(Command::new(Path::new(MOTO).join("python")).arg("-c").arg(setup));
        let mut words = out.split_whitespace();
        let (access_key, secret) = (words.next().unwrap().to_string(), words.next().unwrap().to_string());
        S3 { port, access_key, secret, child }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Runs Python with boto3 signed as the test's user: `s3` is a client.
    pub fn python(&self, code: &str) -> String {
        let head = format!(
            "import boto3\ns3 = boto3.client('s3', endpoint_url='{}', region_name='us-east-1', \
             aws_access_key_id='{}', aws_secret_access_key='{}')\n",
            self.endpoint(),
            self.access_key,
            self.secret
        );
        run(Command::new(Path::new(MOTO).join("python")).arg("-c").arg(head + code))
    }

    /// An object's bytes and its Content-Type and Cache-Control.
    pub fn object(&self, bucket: &str, key: &str) -> (Vec<u8>, String, String) {
        let code = format!(
            "import sys\no = s3.get_object(Bucket='{bucket}', Key={key:?})\n\
             sys.stdout.write(o['ContentType'] + '\\n' + o.get('CacheControl', '') + '\\n')\n\
             sys.stdout.write(o['Body'].read().hex())\n"
        );
        let out = self.python(&code);
        let mut lines = out.splitn(3, '\n');
        let content_type = lines.next().unwrap().to_string();
        let cache = lines.next().unwrap().to_string();
        let hex = lines.next().unwrap_or("");
        let bytes = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        (bytes, content_type, cache)
    }
}

impl Drop for S3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
