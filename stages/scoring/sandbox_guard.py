"""Kernel guards the sandboxed child puts on itself before the model's code runs, in every
isolation mode (issue 24; see :mod:`stages.scoring.sandbox`). Standard library only: the boot
executes this file's text in the child.

* **seccomp** (a classic BPF filter, assembled here for x86-64 and AArch64): no ``socket()`` of
  any family (``import _socket`` reaches nothing), no ``ptrace`` or ``process_vm_*`` (nothing
  reads another process's memory), no new namespaces (``unshare``, ``setns``, ``clone`` with a
  namespace flag; ``clone3`` answers ENOSYS so the C library falls back to ``clone``), no
  mounts, no ``bpf``, ``perf_event_open``, keyrings, ``io_uring`` (which would bypass the filter)
  or module loading. With ``own_pid`` (basic mode, where other processes of the user are
  visible) signals may be sent to that process only. Another architecture or the x32 ABI kills.
* **Landlock** (when the kernel has it): files may be read and executed only under the Python
  runtime directories and the process's own ``/proc/<pid>`` (not all of ``/proc``: Landlock's
  ptrace rule keeps another process's ``mem`` and ``cwd`` out of reach, but not its
  ``environ``), read and written on a few device nodes, and created or changed only in the
  working directory; where the kernel's Landlock knows them (ABI 4, 6), TCP ``bind``/``connect``
  and signals or abstract UNIX sockets out of the domain are refused too.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
from typing import Any

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW, RET_KILL = 0x7FFF0000, 0x80000000
RET_ERRNO = 0x00050000
LD_ABS_W, JEQ_K, JGE_K, JSET_K, RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
NR, ARCH, ARG0_LO, ARG0_HI = 0, 4, 16, 20
CLONE_NAMESPACES = 0x7E020080  # NEWNS NEWCGROUP NEWUTS NEWIPC NEWUSER NEWPID NEWNET NEWTIME

# (name, x86-64 number, AArch64 number): asm/unistd_64.h and asm-generic/unistd.h.
_SYSCALLS = [
    ("socket", 41, 198), ("ptrace", 101, 117), ("process_vm_readv", 310, 270),
    ("process_vm_writev", 311, 271), ("unshare", 272, 97), ("setns", 308, 268),
    ("clone", 56, 220), ("clone3", 435, 435), ("kill", 62, 129), ("tkill", 200, 130),
    ("tgkill", 234, 131), ("rt_sigqueueinfo", 129, 138), ("rt_tgsigqueueinfo", 297, 240),
    ("pidfd_open", 434, 434), ("pidfd_send_signal", 424, 424), ("pidfd_getfd", 438, 438),
    ("mount", 165, 40), ("umount2", 166, 39), ("pivot_root", 155, 41), ("chroot", 161, 51),
    ("bpf", 321, 280), ("perf_event_open", 298, 241), ("keyctl", 250, 219), ("add_key", 248, 217),
    ("request_key", 249, 218), ("io_uring_setup", 425, 425), ("io_uring_enter", 426, 426),
    ("io_uring_register", 427, 427), ("userfaultfd", 323, 282), ("open_by_handle_at", 304, 265),
    ("name_to_handle_at", 303, 264), ("kexec_load", 246, 104), ("kexec_file_load", 320, 294),
    ("init_module", 175, 105), ("finit_module", 313, 273), ("delete_module", 176, 106),
    ("move_mount", 429, 429), ("open_tree", 428, 428), ("fsopen", 430, 430),
    ("fsconfig", 431, 431), ("fsmount", 432, 432), ("fspick", 433, 433),
    ("mount_setattr", 442, 442), ("quotactl", 179, 60), ("swapon", 167, 224),
    ("swapoff", 168, 225), ("reboot", 169, 142), ("acct", 163, 89),
]  # fmt: skip
_ARCHES = {"x86_64": (0xC000003E, 1), "aarch64": (0xC00000B7, 2)}
"""AUDIT_ARCH value and the column of :data:`_SYSCALLS` of each machine."""
_SIGNALS = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
_SPECIAL = {"socket", "clone", "clone3", *_SIGNALS}


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def seccomp_program(machine: str, own_pid: int | None) -> bytes:
    """The filter for ``machine`` (``platform.machine()``): a sequence of 8-byte instructions.
    Each check is a pair "if nr == N fall into the next instruction, else skip it", so every
    jump is short."""
    arch, column = _ARCHES[machine]
    nr = {row[0]: int(row[column]) for row in _SYSCALLS}
    eperm, eacces = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.EACCES
    prog = [_op(LD_ABS_W, ARCH), _op(JEQ_K, arch, 1, 0), _op(RET_K, RET_KILL), _op(LD_ABS_W, NR)]
    if machine == "x86_64":  # the x32 ABI numbers (bit 30) would dodge every check below
        prog += [_op(JGE_K, 0x40000000, 0, 1), _op(RET_K, RET_KILL)]
    for name in nr:
        if name not in _SPECIAL:
            prog += [_op(JEQ_K, nr[name], 0, 1), _op(RET_K, eperm)]
    prog += [_op(JEQ_K, nr["socket"], 0, 1), _op(RET_K, eacces)]
    prog += [_op(JEQ_K, nr["clone3"], 0, 1), _op(RET_K, RET_ERRNO | errno.ENOSYS)]
    prog += [  # clone: refused with a namespace flag in its first argument
        _op(JEQ_K, nr["clone"], 0, 4),
        _op(LD_ABS_W, ARG0_LO),
        _op(JSET_K, CLONE_NAMESPACES, 0, 1),
        _op(RET_K, eperm),
        _op(RET_K, RET_ALLOW),
    ]
    if own_pid is not None:  # signals: the target (first argument) must be this process
        for name in _SIGNALS:
            prog += [
                _op(JEQ_K, nr[name], 0, 6),
                _op(LD_ABS_W, ARG0_LO),
                _op(JEQ_K, own_pid, 0, 3),
                _op(LD_ABS_W, ARG0_HI),
                _op(JEQ_K, 0, 0, 1),
                _op(RET_K, RET_ALLOW),
                _op(RET_K, eperm),
            ]
    prog.append(_op(RET_K, RET_ALLOW))
    return b"".join(prog)


def install_seccomp(libc: Any, own_pid: int | None) -> bool:
    """Load the filter into this process (no_new_privs must be set); False on an architecture
    without a table."""
    machine = platform.machine()
    if machine not in _ARCHES:
        return False
    program = seccomp_program(machine, own_pid)
    buffer = ctypes.create_string_buffer(program, len(program))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter refused")
    return True


# Landlock (linux/landlock.h). System call numbers are the same on every architecture.
SYS_CREATE, SYS_ADD_RULE, SYS_RESTRICT = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
_FS_BITS = {1: 13, 2: 14, 3: 15, 4: 15, 5: 16}  # rights (bits) each ABI handles
_FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | (1 << 14) | (1 << 15)  # + TRUNCATE, IOCTL_DEV
NET_BIND_CONNECT = 1 | 2
SCOPE_ABSTRACT_UNIX_AND_SIGNAL = 1 | 2


def landlock_abi(libc: Any) -> int:
    """The kernel's Landlock ABI version, 0 when it has none (or it is disabled)."""
    version = libc.syscall(SYS_CREATE, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    return max(0, int(version))


def install_landlock(libc: Any, readable: list[str], writable: str, devices: list[str]) -> int:
    """Restrict this process as the module docstring says; returns the ABI used (0: none)."""
    abi = landlock_abi(libc)
    if abi == 0:
        return 0
    handled = (1 << _FS_BITS.get(abi, 16)) - 1
    fields = [handled]
    if abi >= 4:
        fields.append(NET_BIND_CONNECT)
    if abi >= 6:
        fields.append(SCOPE_ABSTRACT_UNIX_AND_SIGNAL)
    attr = struct.pack(f"{len(fields)}Q", *fields)
    ruleset = libc.syscall(SYS_CREATE, attr, ctypes.c_size_t(len(attr)), 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        rules = [(p, READ_FILE | READ_DIR | EXECUTE) for p in readable]
        rules += [(d, (READ_FILE | WRITE_FILE) & handled) for d in devices]
        rules.append((writable, handled))
        for path, access in rules:
            _add_rule(libc, ruleset, path, access, handled)
        if libc.syscall(SYS_RESTRICT, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _add_rule(libc: Any, ruleset: int, path: str, access: int, handled: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a path this system lacks: nothing to allow
    try:
        if not os.path.isdir(path):
            access &= _FILE_ONLY
        rule = struct.pack("=Qi", access & handled, fd)
        if libc.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, rule, 0) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
    finally:
        os.close(fd)
