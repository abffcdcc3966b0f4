#!/usr/bin/env perl
# perlasm/x86_64-xlate.pl - turn asmcrypt's x86_64 module source into GNU as
# for one of three object flavours.
#
# Usage (from a module, which writes its source to this filter):
#
#   perl perlasm/x86_64-xlate.pl FLAVOUR [OUT.S] < module-source
#
#   FLAVOUR  elf      SysV ABI, ELF (Linux, BSD); also accepted: linux, elf64
#            macosx   SysV ABI, Mach-O: '_' symbol prefix, L-local labels
#            mingw64  Win64 ABI, COFF/PE: argument registers are moved into
#                     SysV order at entry, rdi/rsi/xmm6-15 are saved, SEH
#                     unwind information is emitted with .seh_* directives
#   OUT.S    output file (default: stdout)
#
# Module source is AT&T syntax written for the SysV ABI (arguments in rdi,
# rsi, rdx, rcx, r8, r9) plus these pseudo-ops, one per line:
#
#   .asm_func NAME[, opt ...]   start a function.  Options:
#        global       exported entry point (default); gets endbr64, the
#                     Win64 argument shuffle and a symbol type
#        local        internal function reached only by direct call/jmp,
#                     keeps the SysV convention on every flavour
#        indirect     like global (native ABI, endbr64) but not exported:
#                     a function only reached through a function pointer
#        nargs=N      number of integer arguments (0..6, default 6)
#        push=a:b:..  callee-saved registers to push (e.g. push=rbx:rbp:r12)
#        frame=N      N bytes of locals at 0(%rsp)..N-1(%rsp), rsp 16-aligned
#        xmm          the body clobbers xmm6-15 (Win64 saves them in this
#                     function's frame, .asm_ret restores them; also for
#                     local functions, so that a global entry can keep
#                     the saves off its short paths)
#     The prologue (pushes, frame, CFI or SEH) is emitted right here.
#   .asm_ret                    epilogue (mirror of the prologue) + ret; may
#                               appear several times in one function
#   .asm_endfunc                end of the function
#   .asm_extern SYM             SYM is a symbol defined elsewhere (hidden)
#   .asm_rodata / .asm_text     switch to read-only data / code
#   .asm_note                   ELF: CET property note + non-executable
#                               stack note (emit once, at the end)
#
# Everything else is passed through, with these rewrites: names of
# functions/externs get a '_' prefix on macosx, '.Lx' labels become 'Lx' on
# macosx, '.align N' becomes '.balign N', '#' comments become C comments
# (the output is run through the C preprocessor), except for preprocessor
# lines (#if, #ifdef, #define, ...) and '# LLVM-MCA-BEGIN/END/UNITS'
# markers, which are kept verbatim.
#
# The interface above is stable: other modules depend on it.
# perlasm/x86_64-win64-check.sh runs the mingw64 output of the x86_64
# modules under the Win64 calling convention on Linux (argument shuffle,
# stack arguments, callee-saved registers) against the C references.
use strict;
use warnings;

my $flavour = shift @ARGV // die "usage: $0 elf|macosx|mingw64 [out.S]\n";
my $output  = shift @ARGV;
$flavour = 'elf' if $flavour =~ /^(linux|elf64|elf)$/;
die "x86_64-xlate.pl: unknown flavour '$flavour'\n"
    unless $flavour =~ /^(elf|macosx|mingw64)$/;
my $elf   = $flavour eq 'elf';
my $macho = $flavour eq 'macosx';
my $win64 = $flavour eq 'mingw64';

my @src = <STDIN>;

# Pass 1: collect symbol names that need the Mach-O '_' prefix.
my %sym;
for (@src) {
    $sym{$1} = 1 if /^\s*\.asm_func\s+([A-Za-z_]\w*)/;
    $sym{$1} = 1 if /^\s*\.asm_extern\s+(\w+)/;
    $sym{$1} = 1 if /^\s*\.globl\s+(\w+)/;
}

my @sysv_args  = qw(rdi rsi rdx rcx r8 r9);
my @win64_args = qw(rcx rdx r8 r9);

my @out;
my $fn;          # current function: hashref

sub emit { push @out, map { "$_\n" } @_ }

sub sym_name {
    my ($n) = @_;
    return $n =~ /^\.L(.*)/ ? ($macho ? "L$1" : $n) : ($macho ? "_$n" : $n);
}

# Comments: keep the code, turn '# text' into '/* text */'.
sub split_comment {
    my ($line) = @_;
    my ($code, $cmt) = ($line, undef);
    my $inq = 0;
    for my $i (0 .. length($line) - 1) {
        my $c = substr($line, $i, 1);
        $inq = !$inq if $c eq '"';
        if ($c eq '#' && !$inq) {
            $code = substr($line, 0, $i);
            $cmt  = substr($line, $i + 1);
            last;
        }
    }
    return ($code, $cmt);
}

sub c_comment {
    my ($t) = @_;
    $t =~ s/\*\//* \//g;
    $t =~ s/\s+$//;
    return "/*$t */";
}

sub rewrite_code {
    my ($code) = @_;
    if ($macho) {
        $code =~ s/(?<![\w.\$])\.L(\w)/L$1/g;
        for my $s (keys %sym) {
            $code =~ s/(?<![\w.\$])\Q$s\E(?!\w)/_$s/g;
        }
    }
    $code =~ s/^(\s*)\.align\b/$1.balign/;
    return $code;
}

sub cfi { emit(@_) unless $win64 }

sub func_begin {
    my ($name, @opts) = @_;
    my %f = (name => $name, global => 1, export => 1, nargs => 6,
             push => [], frame => 0, xmm => 0);
    for (@opts) {
        s/^\s+|\s+$//g;
        next if $_ eq '';
        if    ($_ eq 'global')        { $f{global} = 1 }
        elsif ($_ eq 'local')         { $f{global} = 0; $f{export} = 0 }
        elsif ($_ eq 'indirect')      { $f{global} = 1; $f{export} = 0 }
        elsif (/^nargs=(\d)$/)        { $f{nargs} = $1 }
        elsif (/^push=([\w:]+)$/)     { $f{push} = [split /:/, $1] }
        elsif (/^frame=(\d+)$/)       { $f{frame} = $1 }
        elsif ($_ eq 'xmm')           { $f{xmm} = 1 }
        else { die "x86_64-xlate.pl: bad .asm_func option '$_'\n" }
    }
    my @pushes = @{$f{push}};
    # Win64 entry points also save rdi and rsi (callee-saved there).
    unshift @pushes, qw(rdi rsi) if $win64 && $f{global};
    $f{pushes} = \@pushes;
    my $xmmsz = ($win64 && $f{xmm}) ? 10 * 16 : 0;
    my $loc = ($f{frame} + 15) & ~15;
    my $alloc = $loc + $xmmsz;
    # At entry rsp = 8 mod 16; after the pushes 8 + 8*n.  Keep rsp 16-aligned
    # whenever we allocate anything.
    $alloc += 8 if $alloc && (8 + 8 * @pushes) % 16 != 0;
    $f{alloc} = $alloc;
    $f{xmmoff} = $loc;
    $fn = \%f;

    my $s = sym_name($name);
    emit(".text", ".balign 32");
    if ($f{export}) {
        emit(".globl $s");
        if ($elf) { emit(".type $s,\@function") }
        elsif ($win64) { emit(".def $s; .scl 2; .type 32; .endef") }
    } elsif ($elf) {
        emit(".type $s,\@function");
    } elsif ($win64) {
        emit(".def $s; .scl 3; .type 32; .endef");
    }
    emit("$s:");
    emit(".seh_proc $s") if $win64;
    cfi(".cfi_startproc");
    emit("\tendbr64") if $f{global};
    my $cfa = 8;
    for my $r (@pushes) {
        emit("\tpushq\t%$r");
        $cfa += 8;
        cfi(".cfi_adjust_cfa_offset 8", ".cfi_offset %$r,-$cfa");
        emit(".seh_pushreg %$r") if $win64;
    }
    if ($alloc) {
        emit("\tsubq\t\$$alloc,%rsp");
        cfi(".cfi_adjust_cfa_offset $alloc");
        emit(".seh_stackalloc $alloc") if $win64;
    }
    if ($xmmsz) {
        # movups: a local function's frame need not be 16-aligned (its
        # caller may have pushed an odd number of registers); the SEH
        # offsets stay multiples of 16 as UWOP_SAVE_XMM128 requires.
        for my $i (6 .. 15) {
            my $off = $f{xmmoff} + 16 * ($i - 6);
            emit("\tmovups\t%xmm$i,$off(%rsp)");
            emit(".seh_savexmm %xmm$i, $off");
        }
    }
    emit(".seh_endprologue") if $win64;
    if ($win64 && $f{global}) {
        # Win64 rcx,rdx,r8,r9,[stack] -> SysV rdi,rsi,rdx,rcx,r8,r9
        my $n = $f{nargs};
        emit("\tmovq\t%rcx,%rdi") if $n >= 1;
        emit("\tmovq\t%rdx,%rsi") if $n >= 2;
        emit("\tmovq\t%r8,%rdx")  if $n >= 3;
        emit("\tmovq\t%r9,%rcx")  if $n >= 4;
        my $base = 8 + 8 * @pushes + $alloc + 32;   # ret + saves + shadow
        emit("\tmovq\t$base(%rsp),%r8")          if $n >= 5;
        emit("\tmovq\t" . ($base + 8) . "(%rsp),%r9") if $n >= 6;
    }
}

sub func_ret {
    die "x86_64-xlate.pl: .asm_ret outside a function\n" unless $fn;
    my %f = %$fn;
    cfi(".cfi_remember_state");
    if ($win64 && $f{xmm}) {
        for my $i (6 .. 15) {
            my $off = $f{xmmoff} + 16 * ($i - 6);
            emit("\tmovups\t$off(%rsp),%xmm$i");
        }
    }
    if ($f{alloc}) {
        emit("\taddq\t\$$f{alloc},%rsp");
        cfi(".cfi_adjust_cfa_offset -$f{alloc}");
    }
    for my $r (reverse @{$f{pushes}}) {
        emit("\tpopq\t%$r");
        cfi(".cfi_adjust_cfa_offset -8", ".cfi_restore %$r");
    }
    emit("\tret");
    cfi(".cfi_restore_state");
}

sub func_end {
    die "x86_64-xlate.pl: .asm_endfunc outside a function\n" unless $fn;
    my $s = sym_name($fn->{name});
    cfi(".cfi_endproc");
    emit(".seh_endproc") if $win64;
    emit(".size $s,.-$s") if $elf;
    $fn = undef;
}

sub note {
    return unless $elf;
    emit('.section .note.gnu.property,"a"',
         '.p2align 3',
         '.long 4, 16, 5',              # namesz, descsz, NT_GNU_PROPERTY_TYPE_0
         '.asciz "GNU"',
         '.long 0xc0000002, 4, 3',      # X86_FEATURE_1_AND: IBT | SHSTK
         '.p2align 3',
         '.section .note.GNU-stack,"",@progbits');
}

my $ppdir = qr/^\s*#\s*(if|ifdef|ifndef|else|elif|endif|define|undef|include|error|warning)\b/;

for my $line (@src) {
    chomp $line;
    if ($line =~ $ppdir || $line =~ /^\s*#\s*LLVM-MCA-(BEGIN|END|UNITS)\b/) {
        emit($line);
        next;
    }
    my ($code, $cmt) = split_comment($line);
    my $c = $cmt // '';
    if ($code =~ /^\s*\.asm_func\s+([.\w]+)\s*,?\s*(.*?)\s*$/) {
        func_begin($1, split /,/, $2);
    } elsif ($code =~ /^\s*\.asm_ret\b/) {
        func_ret();
    } elsif ($code =~ /^\s*\.asm_endfunc\b/) {
        func_end();
    } elsif ($code =~ /^\s*\.asm_extern\s+(\w+)/) {
        emit(".hidden $1") if $elf;
        emit(".extern " . sym_name($1)) unless $elf;
    } elsif ($code =~ /^\s*\.asm_rodata\b/) {
        emit($elf ? '.section .rodata' :
             $macho ? '.section __TEXT,__const' : '.section .rdata,"dr"');
    } elsif ($code =~ /^\s*\.asm_text\b/) {
        emit('.text');
    } elsif ($code =~ /^\s*\.asm_note\b/) {
        note();
    } elsif ($code =~ /^\s*\.section\s+\.note\.GNU-stack/) {
        emit($code) if $elf;
    } elsif ($code =~ /^\s*\.(type|size|hidden)\b/) {
        emit(rewrite_code($code)) if $elf;
    } else {
        my $r = $code =~ /\S/ ? rewrite_code($code) : $code;
        $r .= (length $r ? "\t" : '') . c_comment($c) if defined $cmt;
        emit($r);
    }
}
die "x86_64-xlate.pl: missing .asm_endfunc for $fn->{name}\n" if $fn;

my $fh;
if (defined $output) {
    open($fh, '>', $output) or die "x86_64-xlate.pl: $output: $!\n";
} else {
    $fh = \*STDOUT;
}
print $fh @out;
close($fh) or die "x86_64-xlate.pl: write: $!\n";
