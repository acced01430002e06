//! Generates a large, realistic `show -json` plan for benchmarks and tests.
//!
//! `cargo run --release --example gen_plan -- --size 200M --seed 1 -o plan.json`
//!
//! The plan looks like a big AWS estate: `aws_instance`, `aws_security_group`,
//! `aws_iam_role_policy` (escaped JSON policy strings) and `aws_db_instance`
//! (a sensitive password) in nested modules, with every action kind (both
//! replace orders, deposed deletes, forget, import, moves, data reads), sensitive
//! and unknown markers, drift with `relevant_attributes`, checks and output
//! changes; `planned_values`, `prior_state` and `configuration` repeat the
//! resources as real plans do. Output is deterministic for a seed and size.
//! With `--expect FILE` it also writes the counts it generated (the ground truth
//! for tests).

use std::fmt::Write as _;
use std::io::{self, Write};

/// splitmix64: small, deterministic, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    pub fn hex(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            let _ = write!(s, "{:016x}", self.next_u64());
        }
        s.truncate(len);
        s
    }
}

/// What one resource change is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    NoOp,
    Update,
    Create,
    Delete,
    ReplaceDeleteFirst,
    ReplaceCreateFirst,
    DeposedDelete,
    Forget,
    Import,
    Move,
    DataRead,
}

impl Kind {
    fn pick(r: &mut Rng) -> Kind {
        match r.below(1000) {
            0..=779 => Kind::NoOp,
            780..=839 => Kind::Update,
            840..=879 => Kind::Create,
            880..=909 => Kind::Delete,
            910..=929 => Kind::ReplaceDeleteFirst,
            930..=944 => Kind::ReplaceCreateFirst,
            945..=954 => Kind::DeposedDelete,
            955..=964 => Kind::Forget,
            965..=974 => Kind::Import,
            975..=984 => Kind::Move,
            _ => Kind::DataRead,
        }
    }
    fn actions(self) -> &'static str {
        match self {
            Kind::NoOp | Kind::Import | Kind::Move => r#"["no-op"]"#,
            Kind::Update => r#"["update"]"#,
            Kind::Create => r#"["create"]"#,
            Kind::Delete | Kind::DeposedDelete => r#"["delete"]"#,
            Kind::ReplaceDeleteFirst => r#"["delete","create"]"#,
            Kind::ReplaceCreateFirst => r#"["create","delete"]"#,
            Kind::Forget => r#"["forget"]"#,
            Kind::DataRead => r#"["read"]"#,
        }
    }
}

/// The counts a correct `summary` must report for the generated plan.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Expect {
    pub resource_changes: u64,
    pub import: u64,
    pub add: u64,
    pub change: u64,
    pub destroy: u64,
    pub forget: u64,
    pub no_op: u64,
    pub create: u64,
    pub update: u64,
    pub delete: u64,
    pub replace: u64,
    pub read: u64,
    pub moved: u64,
    pub deposed: u64,
    pub drift: u64,
    pub checks_pass: u64,
    pub checks_fail: u64,
    pub checks_unknown: u64,
    pub output_changes: u64,
    /// The address of the resource in the middle of `resource_changes` (for `show --address`).
    pub sample_address: String,
}

impl Expect {
    fn count(&mut self, k: Kind) {
        self.resource_changes += 1;
        match k {
            Kind::NoOp => self.no_op += 1,
            Kind::Move => {
                self.no_op += 1;
                self.moved += 1
            }
            Kind::Import => {
                self.no_op += 1;
                self.import += 1
            }
            Kind::Update => {
                self.update += 1;
                self.change += 1
            }
            Kind::Create => {
                self.create += 1;
                self.add += 1
            }
            Kind::Delete => {
                self.delete += 1;
                self.destroy += 1
            }
            Kind::DeposedDelete => {
                self.delete += 1;
                self.destroy += 1;
                self.deposed += 1
            }
            Kind::ReplaceDeleteFirst | Kind::ReplaceCreateFirst => {
                self.replace += 1;
                self.add += 1;
                self.destroy += 1
            }
            Kind::Forget => {
                self.forget += 1;
            }
            Kind::DataRead => self.read += 1,
        }
    }

    pub fn to_json(&self) -> String {
        format!(
            r#"{{"sample_address":{},"resource_changes":{},"totals":{{"import":{},"add":{},"change":{},"destroy":{},"forget":{}}},"actions":{{"no-op":{},"create":{},"update":{},"delete":{},"replace":{},"read":{},"forget":{}}},"moved":{},"deposed":{},"drift":{},"checks":{{"pass":{},"fail":{},"unknown":{}}},"output_changes":{}}}"#,
            json_str(&self.sample_address),
            self.resource_changes,
            self.import,
            self.add,
            self.change,
            self.destroy,
            self.forget,
            self.no_op,
            self.create,
            self.update,
            self.delete,
            self.replace,
            self.read,
            self.forget,
            self.moved,
            self.deposed,
            self.drift,
            self.checks_pass,
            self.checks_fail,
            self.checks_unknown,
            self.output_changes
        )
    }
}

/// One generated resource instance.
struct Res {
    module: Option<String>,
    type_: &'static str,
    name: String,
    index: u64,
    kind: Kind,
    /// Attribute object (before, or the current value).
    before: String,
    /// Attribute object after the change (equal to `before` for no-ops).
    after: String,
    sensitive: &'static str,
    unknown: &'static str,
    seed: u64,
}

impl Res {
    fn address(&self) -> String {
        let mode = if self.kind == Kind::DataRead { "data." } else { "" };
        match &self.module {
            Some(m) => format!("{m}.{mode}{}.{}[{}]", self.type_, self.name, self.index),
            None => format!("{mode}{}.{}[{}]", self.type_, self.name, self.index),
        }
    }
}

const TYPES: &[&str] = &["aws_instance", "aws_security_group", "aws_iam_role_policy", "aws_db_instance"];
const AZS: &[&str] = &["eu-west-1a", "eu-west-1b", "eu-west-1c"];

fn tags(r: &mut Rng, name: &str, env: &str) -> String {
    format!(
        r#"{{"Environment":"{env}","Name":"{name}","Owner":"team-{}","CostCenter":"cc-{}","Description":"Servicé für Zürich — {}","ManagedBy":"terraform"}}"#,
        r.below(40),
        r.below(9000) + 1000,
        r.hex(12)
    )
}

fn instance(r: &mut Rng, name: &str, env: &str, itype: &str) -> String {
    let id = format!("i-{}", r.hex(17));
    let sg: Vec<String> = (0..1 + r.below(3)).map(|_| format!("\"sg-{}\"", r.hex(17))).collect();
    let t = tags(r, name, env);
    format!(
        concat!(
            r#"{{"ami":"ami-{ami}","arn":"arn:aws:ec2:eu-west-1:123456789012:instance/{id}","associate_public_ip_address":false,"#,
            r#""availability_zone":"{az}","capacity_reservation_specification":[{{"capacity_reservation_preference":"open","capacity_reservation_target":[]}}],"#,
            r#""cpu_core_count":2,"cpu_options":[{{"amd_sev_snp":"","core_count":2,"threads_per_core":2}}],"cpu_threads_per_core":2,"#,
            r#""credit_specification":[],"disable_api_stop":false,"disable_api_termination":false,"ebs_block_device":[],"ebs_optimized":true,"#,
            r#""enclave_options":[{{"enabled":false}}],"ephemeral_block_device":[],"get_password_data":false,"hibernation":false,"host_id":"","#,
            r#""host_resource_group_arn":null,"iam_instance_profile":"{name}-profile","id":"{id}","instance_initiated_shutdown_behavior":"stop","#,
            r#""instance_lifecycle":"","instance_market_options":[],"instance_state":"running","instance_type":"{itype}","ipv6_address_count":0,"#,
            r#""ipv6_addresses":[],"key_name":"deploy-{env}","launch_template":[],"maintenance_options":[{{"auto_recovery":"default"}}],"#,
            r#""metadata_options":[{{"http_endpoint":"enabled","http_protocol_ipv6":"disabled","http_put_response_hop_limit":2,"http_tokens":"required","instance_metadata_tags":"disabled"}}],"#,
            r#""monitoring":true,"network_interface":[],"outpost_arn":"","password_data":"","placement_group":"","placement_partition_number":0,"#,
            r#""primary_network_interface_id":"eni-{eni}","private_dns":"ip-10-{a}-{b}-{c}.eu-west-1.compute.internal","#,
            r#""private_dns_name_options":[{{"enable_resource_name_dns_a_record":false,"enable_resource_name_dns_aaaa_record":false,"hostname_type":"ip-name"}}],"#,
            r#""private_ip":"10.{a}.{b}.{c}","public_dns":"","public_ip":"","root_block_device":[{{"delete_on_termination":true,"device_name":"/dev/xvda","#,
            r#""encrypted":true,"iops":3000,"kms_key_id":"arn:aws:kms:eu-west-1:123456789012:key/{kms}","tags":{{}},"tags_all":{{}},"throughput":125,"#,
            r#""volume_id":"vol-{vol}","volume_size":{size},"volume_type":"gp3"}}],"secondary_private_ips":[],"security_groups":[],"source_dest_check":true,"#,
            r#""spot_instance_request_id":"","subnet_id":"subnet-{subnet}","tags":{t},"tags_all":{t},"tenancy":"default","timeouts":null,"#,
            r#""user_data":"{ud}","user_data_base64":null,"user_data_replace_on_change":false,"volume_tags":null,"vpc_security_group_ids":[{sg}]}}"#
        ),
        ami = r.hex(17),
        id = id,
        az = AZS[r.below(3) as usize],
        name = name,
        itype = itype,
        env = env,
        eni = r.hex(17),
        a = r.below(256),
        b = r.below(256),
        c = r.below(256),
        kms = r.hex(32),
        vol = r.hex(17),
        size = 8 << r.below(6),
        subnet = r.hex(17),
        t = t,
        ud = r.hex(40),
        sg = sg.join(","),
    )
}

fn security_group(r: &mut Rng, name: &str, env: &str) -> String {
    let mut rules = Vec::new();
    for _ in 0..2 + r.below(6) {
        let port = [22, 80, 443, 5432, 6379, 8080, 9090][r.below(7) as usize];
        rules.push(format!(
            r#"{{"cidr_blocks":["10.{}.0.0/16","172.16.{}.0/24"],"description":"allow {port} from \"internal\" nets","from_port":{port},"ipv6_cidr_blocks":[],"prefix_list_ids":[],"protocol":"tcp","security_groups":["sg-{}"],"self":false,"to_port":{port}}}"#,
            r.below(256),
            r.below(256),
            r.hex(17)
        ));
    }
    let id = format!("sg-{}", r.hex(17));
    let t = tags(r, name, env);
    format!(
        r#"{{"arn":"arn:aws:ec2:eu-west-1:123456789012:security-group/{id}","description":"Managed by Terraform","egress":[{{"cidr_blocks":["0.0.0.0/0"],"description":"","from_port":0,"ipv6_cidr_blocks":[],"prefix_list_ids":[],"protocol":"-1","security_groups":[],"self":false,"to_port":0}}],"id":"{id}","ingress":[{}],"name":"{name}","name_prefix":"","owner_id":"123456789012","revoke_rules_on_delete":false,"tags":{t},"tags_all":{t},"timeouts":null,"vpc_id":"vpc-{}"}}"#,
        rules.join(","),
        r.hex(17)
    )
}

fn role_policy(r: &mut Rng, name: &str) -> String {
    let mut stmts = Vec::new();
    for i in 0..2 + r.below(5) {
        stmts.push(format!(
            r#"{{\"Sid\":\"Stmt{i}\",\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\",\"s3:PutObject\",\"s3:ListBucket\",\"kms:Decrypt\"],\"Resource\":[\"arn:aws:s3:::bucket-{}\",\"arn:aws:s3:::bucket-{}/*\"],\"Condition\":{{\"StringEquals\":{{\"aws:PrincipalTag/team\":\"t{}\"}}}}}}"#,
            r.hex(10),
            r.hex(10),
            r.below(50)
        ));
    }
    format!(
        r#"{{"id":"{name}-role:{name}","name":"{name}","name_prefix":"","policy":"{{\"Version\":\"2012-10-17\",\"Statement\":[{}]}}","role":"{name}-role"}}"#,
        stmts.join(",")
    )
}

fn db_instance(r: &mut Rng, name: &str, env: &str) -> String {
    let t = tags(r, name, env);
    format!(
        r#"{{"address":"{name}.{}.eu-west-1.rds.amazonaws.com","allocated_storage":{},"arn":"arn:aws:rds:eu-west-1:123456789012:db:{name}","auto_minor_version_upgrade":true,"backup_retention_period":7,"backup_window":"03:00-04:00","ca_cert_identifier":"rds-ca-rsa2048-g1","db_name":"app","db_subnet_group_name":"{env}-db","deletion_protection":true,"endpoint":"{name}.{}.eu-west-1.rds.amazonaws.com:5432","engine":"postgres","engine_version":"16.3","id":"db-{}","identifier":"{name}","instance_class":"db.r6g.large","kms_key_id":"arn:aws:kms:eu-west-1:123456789012:key/{}","multi_az":true,"password":"{}","port":5432,"storage_encrypted":true,"storage_type":"gp3","tags":{t},"tags_all":{t},"username":"app","vpc_security_group_ids":["sg-{}"]}}"#,
        r.hex(12),
        20 << r.below(5),
        r.hex(12),
        r.hex(26),
        r.hex(32),
        r.hex(24),
        r.hex(17)
    )
}

fn make_res(r: &mut Rng, i: u64) -> Res {
    let seed = r.next_u64();
    let mut rr = Rng::new(seed);
    let r = &mut rr;
    let depth = r.below(3);
    let module = match depth {
        0 => None,
        1 => Some(format!("module.app_{}", r.below(30))),
        _ => Some(format!("module.app_{}.module.svc_{}[\"{}\"]", r.below(30), r.below(8), ["blue", "green"][r.below(2) as usize])),
    };
    let kind = Kind::pick(r);
    let type_ = if kind == Kind::DataRead { "aws_ami" } else { TYPES[r.below(TYPES.len() as u64) as usize] };
    let env = ["prod", "staging", "dev"][r.below(3) as usize];
    let name = format!("{}_{}", ["web", "api", "worker", "batch", "cache"][r.below(5) as usize], i / 7);
    let (before, sensitive, unknown) = match type_ {
        "aws_instance" => (
            instance(r, &name, env, "m6i.large"),
            "{}",
            r#"{"arn":true,"id":true,"private_ip":true,"private_dns":true,"public_ip":true,"primary_network_interface_id":true,"root_block_device":[{"volume_id":true}],"tags_all":true}"#,
        ),
        "aws_security_group" => (security_group(r, &name, env), "{}", r#"{"arn":true,"id":true,"owner_id":true,"tags_all":true}"#),
        "aws_iam_role_policy" => (role_policy(r, &name), "{}", r#"{"id":true}"#),
        "aws_db_instance" => {
            (db_instance(r, &name, env), r#"{"password":true}"#, r#"{"address":true,"arn":true,"endpoint":true,"id":true}"#)
        }
        _ => (
            format!(
                r#"{{"architecture":"x86_64","id":"ami-{}","most_recent":true,"name":"al2023-ami-2023.{}","owners":["amazon"]}}"#,
                r.hex(17),
                r.below(999)
            ),
            "{}",
            r#"{"id":true,"name":true}"#,
        ),
    };
    let after = match kind {
        Kind::Update => before.replacen("\"ManagedBy\":\"terraform\"", "\"ManagedBy\":\"terraform\",\"Revision\":\"2\"", 1).replacen(
            "m6i.large",
            "m6i.xlarge",
            1,
        ),
        Kind::ReplaceDeleteFirst | Kind::ReplaceCreateFirst => before.replacen("ami-", "ami-0", 1),
        _ => before.clone(),
    };
    Res { module, type_, name, index: i % 7, kind, before, after, sensitive, unknown, seed }
}

fn write_change(w: &mut dyn Write, res: &Res, drift: bool) -> io::Result<()> {
    let mut r = Rng::new(res.seed ^ 0x5555);
    let addr = res.address();
    let mode = if res.kind == Kind::DataRead { "data" } else { "managed" };
    write!(w, r#"{{"address":{}"#, json_str(&addr))?;
    if res.kind == Kind::Move && !drift {
        let prev = addr.replacen(&res.name, &format!("{}_old", res.name), 1);
        write!(w, r#","previous_address":{}"#, json_str(&prev))?;
    }
    if let Some(m) = &res.module {
        write!(w, r#","module_address":{}"#, json_str(m))?;
    }
    write!(
        w,
        r#","mode":"{mode}","type":"{}","name":"{}","index":{},"provider_name":"registry.terraform.io/hashicorp/aws""#,
        res.type_, res.name, res.index
    )?;
    if res.kind == Kind::DeposedDelete && !drift {
        write!(w, r#","deposed":"{}""#, r.hex(8))?;
    }
    let actions = if drift { r#"["update"]"# } else { res.kind.actions() };
    write!(w, r#","change":{{"actions":{actions},"#)?;
    let (before, after, after_unknown, bs, as_) = if drift {
        (
            res.before.as_str(),
            res.before.replacen("\"ManagedBy\":\"terraform\"", "\"ManagedBy\":\"console\"", 1),
            "{}",
            res.sensitive,
            res.sensitive,
        )
    } else {
        match res.kind {
            Kind::Create => ("null", res.after.clone(), res.unknown, "false", res.sensitive),
            Kind::DataRead => ("null", res.after.clone(), res.unknown, "false", res.sensitive),
            Kind::Delete | Kind::DeposedDelete | Kind::Forget => (res.before.as_str(), "null".to_string(), "{}", res.sensitive, "false"),
            Kind::ReplaceDeleteFirst | Kind::ReplaceCreateFirst => {
                (res.before.as_str(), res.after.clone(), res.unknown, res.sensitive, res.sensitive)
            }
            _ => (res.before.as_str(), res.after.clone(), "{}", res.sensitive, res.sensitive),
        }
    };
    write!(w, r#""before":{before},"after":{after},"after_unknown":{after_unknown},"before_sensitive":{bs},"after_sensitive":{as_}"#)?;
    if matches!(res.kind, Kind::ReplaceDeleteFirst | Kind::ReplaceCreateFirst) && !drift {
        w.write_all(br#","replace_paths":[["ami"]]"#)?;
    }
    if res.kind == Kind::Import && !drift {
        write!(w, r#","importing":{{"id":"{}"}}"#, r.hex(17))?;
    }
    w.write_all(b"}")?;
    if !drift {
        let reason = match res.kind {
            Kind::ReplaceDeleteFirst => {
                Some(["replace_because_cannot_update", "replace_because_tainted", "replace_by_request"][r.below(3) as usize])
            }
            Kind::ReplaceCreateFirst => Some("replace_by_triggers"),
            Kind::Delete => {
                Some(["delete_because_no_resource_config", "delete_because_count_index", "delete_because_no_module"][r.below(3) as usize])
            }
            Kind::Forget => Some("forgot_because_lifecycle_destroy_in_config"),
            Kind::DataRead => Some("read_because_config_unknown"),
            _ => None,
        };
        if let Some(reason) = reason {
            write!(w, r#","action_reason":"{reason}""#)?;
        }
    }
    w.write_all(b"}")
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).expect("string")
}

/// Write the values representation of `res` (planned values or prior state).
fn write_values(w: &mut dyn Write, res: &[Res], after: bool) -> io::Result<()> {
    w.write_all(br#"{"outputs":{"vpc_id":{"sensitive":false,"type":"string","value":"vpc-0a1b2c"},"db_password":{"sensitive":true,"type":"string","value":"hunter2-secret"}},"root_module":{"resources":["#)?;
    let mut first = true;
    // Child modules are flattened under one child per module address, in order of appearance.
    let mut by_module: Vec<(String, Vec<&Res>)> = Vec::new();
    for r in res {
        let gone = if after { matches!(r.kind, Kind::Delete | Kind::DeposedDelete | Kind::Forget) } else { r.kind == Kind::Create };
        if gone {
            continue;
        }
        match &r.module {
            None => {
                if !first {
                    w.write_all(b",")?;
                }
                first = false;
                write_resource_value(w, r, after)?;
            }
            Some(m) => match by_module.iter_mut().find(|(k, _)| k == m) {
                Some((_, v)) => v.push(r),
                None => by_module.push((m.clone(), vec![r])),
            },
        }
    }
    w.write_all(br#"],"child_modules":["#)?;
    for (i, (m, rs)) in by_module.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write!(w, r#"{{"address":{},"resources":["#, json_str(m))?;
        for (j, r) in rs.iter().enumerate() {
            if j > 0 {
                w.write_all(b",")?;
            }
            write_resource_value(w, r, after)?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"]}}")
}

fn write_resource_value(w: &mut dyn Write, r: &Res, after: bool) -> io::Result<()> {
    let mode = if r.kind == Kind::DataRead { "data" } else { "managed" };
    write!(
        w,
        r#"{{"address":{},"mode":"{mode}","type":"{}","name":"{}","index":{},"provider_name":"registry.terraform.io/hashicorp/aws","schema_version":1,"values":{},"sensitive_values":{}}}"#,
        json_str(&r.address()),
        r.type_,
        r.name,
        r.index,
        if after { &r.after } else { &r.before },
        r.sensitive
    )
}

/// Generate a plan of about `target` bytes.
pub fn generate(w: &mut dyn Write, target: u64, seed: u64) -> io::Result<Expect> {
    // Calibrate: bytes per resource over all its representations.
    let mut probe = Rng::new(seed);
    let sample: Vec<Res> = (0..300).map(|i| make_res(&mut probe, i)).collect();
    let mut buf = Vec::new();
    for r in &sample {
        write_change(&mut buf, r, false)?;
        write_resource_value(&mut buf, r, true)?;
        write_resource_value(&mut buf, r, false)?;
    }
    let per = (buf.len() as u64 / 300 + 300).max(1);
    let n = (target.saturating_sub(4096) / per).max(1);

    let mut rng = Rng::new(seed);
    let res: Vec<Res> = (0..n).map(|i| make_res(&mut rng, i)).collect();
    let mut ex = Expect::default();
    for r in &res {
        ex.count(r.kind);
    }
    ex.sample_address = res[res.len() / 2].address();

    w.write_all(br#"{"format_version":"1.2","terraform_version":"1.9.8","variables":{"environment":{"value":"prod"},"db_password":{"value":"hunter2-secret"}},"planned_values":"#)?;
    write_values(w, &res, true)?;
    // Drift: every 50th managed resource was changed outside Terraform.
    w.write_all(br#","resource_drift":["#)?;
    let drifted: Vec<&Res> =
        res.iter().enumerate().filter(|(i, r)| i % 50 == 3 && r.kind != Kind::DataRead && r.kind != Kind::Create).map(|(_, r)| r).collect();
    for (i, r) in drifted.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write_change(w, r, true)?;
    }
    ex.drift = drifted.len() as u64;
    w.write_all(br#"],"resource_changes":["#)?;
    for (i, r) in res.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write_change(w, r, false)?;
    }
    w.write_all(br#"],"output_changes":{"#)?;
    let outs = 20;
    for i in 0..outs {
        if i > 0 {
            w.write_all(b",")?;
        }
        let (actions, before, after, sens) = match i % 4 {
            0 => (r#"["no-op"]"#, "\"a\"", "\"a\"", "false"),
            1 => (r#"["update"]"#, "\"a\"", "\"b\"", "false"),
            2 => (r#"["create"]"#, "null", "\"c\"", "false"),
            _ => (r#"["update"]"#, "\"old-secret\"", "\"new-secret\"", "true"),
        };
        write!(
            w,
            r#""out_{i}":{{"actions":{actions},"before":{before},"after":{after},"after_unknown":false,"before_sensitive":{sens},"after_sensitive":{sens}}}"#
        )?;
    }
    ex.output_changes = outs;
    w.write_all(br#"},"prior_state":{"format_version":"1.0","terraform_version":"1.9.8","values":"#)?;
    write_values(w, &res, false)?;
    w.write_all(br#"},"configuration":{"provider_config":{"aws":{"name":"aws","full_name":"registry.terraform.io/hashicorp/aws","expressions":{"region":{"constant_value":"eu-west-1"}}}},"root_module":{"resources":["#)?;
    for (i, t) in TYPES.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write!(
            w,
            r#"{{"address":"{t}.this","mode":"managed","type":"{t}","name":"this","provider_config_key":"aws","expressions":{{"tags":{{"references":["var.environment"]}}}},"schema_version":1,"count_expression":{{"constant_value":7}}}}"#
        )?;
    }
    w.write_all(br#"],"variables":{"environment":{"default":"prod"},"db_password":{"sensitive":true}}}},"relevant_attributes":["#)?;
    for (i, r) in drifted.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        write!(w, r#"{{"resource":{},"attribute":["tags","ManagedBy"]}}"#, json_str(&r.address()))?;
    }
    w.write_all(br#"],"checks":["#)?;
    // One check object per 100 resources: instances pass, fail, or a placeholder (unknown).
    let nchecks = n / 100 + 3;
    for c in 0..nchecks {
        if c > 0 {
            w.write_all(b",")?;
        }
        match c % 3 {
            0 => {
                write!(
                    w,
                    r#"{{"address":{{"kind":"resource","mode":"managed","type":"aws_instance","name":"web_{c}","to_display":"aws_instance.web_{c}"}},"status":"pass","instances":[{{"address":{{"to_display":"aws_instance.web_{c}[0]","instance_key":0}},"status":"pass"}},{{"address":{{"to_display":"aws_instance.web_{c}[1]","instance_key":1}},"status":"pass"}}]}}"#
                )?;
                ex.checks_pass += 2;
            }
            1 => {
                write!(
                    w,
                    r#"{{"address":{{"kind":"check","name":"health_{c}","to_display":"check.health_{c}"}},"status":"fail","instances":[{{"address":{{"to_display":"check.health_{c}"}},"status":"fail","problems":[{{"message":"endpoint {c} returned 503"}}]}}]}}"#
                )?;
                ex.checks_fail += 1;
            }
            _ => {
                write!(w, r#"{{"address":{{"kind":"output_value","name":"out_{c}","to_display":"output.out_{c}"}},"status":"unknown"}}"#)?;
                ex.checks_unknown += 1;
            }
        }
    }
    w.write_all(br#"],"timestamp":"2026-01-01T00:00:00Z","applyable":true,"complete":true,"errored":false}"#)?;
    w.write_all(b"\n")?;
    Ok(ex)
}

/// `20M`, `1G`, `500K` or a plain number of bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mul) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1u64 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok().map(|n| n * mul)
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut size = 20u64 << 20;
    let mut seed = 1u64;
    let mut out: Option<String> = None;
    let mut expect: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--size" => size = parse_size(&v).unwrap_or_else(|| die("bad --size (e.g. 20M, 1G)")),
            "--seed" => seed = v.parse().unwrap_or_else(|_| die("bad --seed")),
            "-o" | "--out" => out = Some(v),
            "--expect" => expect = Some(v),
            "-h" | "--help" => {
                eprintln!("usage: gen_plan [--size 20M] [--seed 1] [-o FILE] [--expect FILE]");
                return;
            }
            other => die(&format!("unknown argument {other}")),
        }
        i += 2;
    }
    let result = match &out {
        Some(p) => {
            let f = std::fs::File::create(p).unwrap_or_else(|e| die(&format!("{p}: {e}")));
            let mut w = io::BufWriter::with_capacity(1 << 20, f);
            generate(&mut w, size, seed).and_then(|e| w.flush().map(|_| e))
        }
        None => {
            let stdout = io::stdout();
            let mut w = io::BufWriter::with_capacity(1 << 20, stdout.lock());
            generate(&mut w, size, seed).and_then(|e| w.flush().map(|_| e))
        }
    };
    match result {
        Ok(ex) => {
            if let Some(p) = expect {
                std::fs::write(&p, ex.to_json()).unwrap_or_else(|e| die(&format!("{p}: {e}")));
            }
        }
        Err(e) => die(&e.to_string()),
    }
}

fn die(msg: &str) -> ! {
    eprintln!("gen_plan: {msg}");
    std::process::exit(2)
}
