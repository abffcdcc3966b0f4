#!/usr/bin/env perl
#
# perlasm/arm-xlate.pl - translate the GNU-as dialect written by the ARM
# perlasm modules into the assembler dialect of one flavour.
#
#   perl arm-xlate.pl FLAVOUR [OUT.S] < in.S
#
# Modules normally open their STDOUT through this script:
#   open STDOUT, "| \"$^X\" \"$xlate\" $flavour \"$output\"";
#
# Flavours (table %FLAVOURS below):
#   linux32, void    GNU as, ELF, 32-bit ARM (pass-through, plus the
#                    pseudo-ops below)
#   ios32            Mach-O: "_" prefix on global symbols, "L" instead of
#                    ".L" for local labels, .thumb_func instead of .type,
#                    no .size, no .note.GNU-stack, .private_extern for
#                    .hidden
#   linux64          GNU as, ELF, AArch64 (pass-through)
#   ios64            Mach-O AArch64: as ios32, plus "adrp x, SYM" and
#                    "#:lo12:SYM" rewritten to SYM@PAGE / SYM@PAGEOFF
#
# Pseudo-ops understood in the input (one per line):
#   .asmcrypt_arch           C-preprocessor block that derives
#                            __ARM_ARCH__ (one number from __ARM_ARCH or
#                            the legacy __ARM_ARCH_nX__ macros) and
#                            __ARM_MAX_ARCH__ (NEON ceiling; an importer
#                            may pre-define it lower, e.g. 6 for "no
#                            NEON"), ASMCRYPT_ARM_UMAAL (1 when umaal
#                            exists: ARMv6+ except M-profile without the
#                            DSP extension), and selects ARM or Thumb-2
#                            mode.
#                            Emitted inline so each .S is self-contained.
#   .asmcrypt_ret            return to lr: "bx lr" on ARMv5+ and Thumb-2;
#                            on ARMv4/v4T an interworking-safe sequence
#                            whose bx is a .word so -march=armv4 accepts it.
#   .asmcrypt_func NAME      start of a global function (alignment,
#                            .globl, .type / .thumb_func, label)
#   .asmcrypt_hidden NAME    hidden-visibility global
#   .asmcrypt_endfunc NAME   .size (ELF) or nothing
#   .asmcrypt_end            GNU-stack note (ELF) or nothing
#
# IT blocks are written by the modules inside "#ifdef __thumb2__" so that
# ARM-mode builds for pre-v6T2 assemblers never see them.
#
use strict;
use warnings;

my %FLAVOURS = (
    linux32 => { abi => 'elf',   bits => 32 },
    void    => { abi => 'elf',   bits => 32 },
    ios32   => { abi => 'macho', bits => 32 },
    # AArch64 (crypto/*/asm/*armv8*.pl): GNU as for linux64; ios64 adds
    # Mach-O's @PAGE/@PAGEOFF relocation syntax (sub macho64_addr).
    linux64 => { abi => 'elf',   bits => 64 },
    ios64   => { abi => 'macho', bits => 64 },
);

my $flavour = shift @ARGV;
$flavour = 'void' if !defined $flavour || $flavour eq '';
my $output  = shift @ARGV;
my $F = $FLAVOURS{$flavour}
    or die "arm-xlate.pl: unknown flavour '$flavour' (known: "
         . join(', ', sort keys %FLAVOURS) . ")\n";
my $macho = $F->{abi} eq 'macho';

if (defined $output) {
    open STDOUT, '>', $output or die "arm-xlate.pl: can't write $output: $!\n";
}

my %globals;        # names declared global: prefixed on Mach-O
my %extdata;        # external data named by .asmcrypt_hidden
my %nlptr;          # Mach-O: extern data reached through a non-lazy pointer

# ---- preprocessor blocks ----------------------------------------------------

sub arch_block32 {
    return <<'___';
#ifndef __ARM_ARCH__
# if defined(__ARM_ARCH)
#  define __ARM_ARCH__ __ARM_ARCH
# elif defined(__ARM_ARCH_8A__)
#  define __ARM_ARCH__ 8
# elif defined(__ARM_ARCH_7__) || defined(__ARM_ARCH_7A__) || \
       defined(__ARM_ARCH_7R__) || defined(__ARM_ARCH_7M__) || \
       defined(__ARM_ARCH_7EM__)
#  define __ARM_ARCH__ 7
# elif defined(__ARM_ARCH_6__) || defined(__ARM_ARCH_6J__) || \
       defined(__ARM_ARCH_6K__) || defined(__ARM_ARCH_6Z__) || \
       defined(__ARM_ARCH_6ZK__) || defined(__ARM_ARCH_6T2__)
#  define __ARM_ARCH__ 6
# elif defined(__ARM_ARCH_5__) || defined(__ARM_ARCH_5T__) || \
       defined(__ARM_ARCH_5E__) || defined(__ARM_ARCH_5TE__) || \
       defined(__ARM_ARCH_5TEJ__)
#  define __ARM_ARCH__ 5
# elif defined(__ARM_ARCH_4__) || defined(__ARM_ARCH_4T__)
#  define __ARM_ARCH__ 4
# else
#  error "cannot tell the ARM architecture level; define __ARM_ARCH__"
# endif
#endif
#ifndef __ARM_MAX_ARCH__
# if defined(__ARM_NEON__) || defined(__ARM_NEON)
#  define __ARM_MAX_ARCH__ __ARM_ARCH__
# else
#  define __ARM_MAX_ARCH__ 6
# endif
#endif
#if __ARM_MAX_ARCH__ > __ARM_ARCH__ && __ARM_ARCH__ < 7
# undef __ARM_MAX_ARCH__
# define __ARM_MAX_ARCH__ __ARM_ARCH__
#endif
#ifndef ASMCRYPT_ARM_UMAAL
# if __ARM_ARCH__ >= 6 && !(defined(__ARM_ARCH_PROFILE) && \
       __ARM_ARCH_PROFILE == 'M' && !defined(__ARM_FEATURE_DSP))
#  define ASMCRYPT_ARM_UMAAL 1
# else
#  define ASMCRYPT_ARM_UMAAL 0
# endif
#endif
#if defined(__thumb2__)
	.syntax	unified
	.thumb
#else
	.syntax	unified
	.arm
#endif
___
}

sub ret_block32 {
    # bx lr is e12fff1e; ARMv4 (no T) has no bx, so lr bit 0 decides.
    return <<'___';
#if __ARM_ARCH__ >= 5 || defined(__thumb2__)
	bx	lr
#else
	tst	lr, #1
	moveq	pc, lr
	.word	0xe12fff1e
#endif
___
}

my %PSEUDO = (
    '.asmcrypt_arch' => sub {
        my ($bits) = @_;
        return arch_block32() if $F->{bits} == 32;
        die "arm-xlate.pl: .asmcrypt_arch has no $F->{bits}-bit form yet\n";
    },
    '.asmcrypt_ret' => sub {
        return ret_block32() if $F->{bits} == 32;
        return "\tret\n";
    },
    '.asmcrypt_func' => sub {
        my ($name) = @_;
        $globals{$name} = 1;
        my $s = sym($name);
        if ($macho) {
            return "\t.globl\t$s\n\t.align\t2\n"
                 . "#ifdef __thumb2__\n\t.thumb_func\t$s\n#endif\n$s:\n";
        }
        my $type = $F->{bits} == 32 ? '%function' : '%function';
        return "\t.globl\t$s\n\t.type\t$s, $type\n\t.align\t5\n$s:\n";
    },
    '.asmcrypt_hidden' => sub {
        my ($name) = @_;
        $globals{$name} = 1;
        $extdata{$name} = 1;
        my $s = sym($name);
        return $macho ? "\t.private_extern\t$s\n" : "\t.hidden\t$s\n";
    },
    '.asmcrypt_endfunc' => sub {
        my ($name) = @_;
        return '' if $macho;
        my $s = sym($name);
        return "\t.size\t$s, .-$s\n";
    },
    '.asmcrypt_end' => sub {
        return '' if $macho;
        return "\t.section\t.note.GNU-stack,\"\",%progbits\n";
    },
);

sub sym { my ($n) = @_; return $macho ? "_$n" : $n; }

# ---- line translation ---------------------------------------------------------

sub translate_line {
    my ($line) = @_;

    if ($line =~ /^\s*(\.asmcrypt_\w+)\b\s*(.*?)\s*$/) {
        my ($op, $arg) = ($1, $2);
        my $h = $PSEUDO{$op} or die "arm-xlate.pl: unknown pseudo-op $op\n";
        return $h->($arg);
    }
    return $line unless $macho;

    # Mach-O only from here on.
    return '' if $line =~ /^\s*\.(type|size)\b/;
    return '' if $line =~ /^\s*\.section\s+\.note\.GNU-stack/;
    $line =~ s/^\s*\.hidden\b/\t.private_extern/;
    $line =~ s/^(\s*)\.section\s+\.rodata\b.*$/$1.const/;
    # Preprocessor lines and comments keep their text.
    return $line if $line =~ /^\s*(#|\@)/;
    # "SYM - label" with SYM external data cannot be assembled for
    # Mach-O: point at a non-lazy pointer instead.  The module adds one
    # more load under __APPLE__ ("#ifdef __APPLE__ ldr rX, [rX]").
    if ($line =~ /^\s*\.(?:word|long)\s+(\w+)\s*-/ && $extdata{$1}) {
        my $n = $1;
        $nlptr{$n} = 1;
        $line =~ s/\b$n\b/L_${n}\$non_lazy_ptr/;
        $line =~ s/(?<![\w.])\.L(\w+)/L$1/g;
        return $line;
    }
    $line = macho64_addr($line) if $F->{bits} == 64;
    $line =~ s/(?<![\w.])\.L(\w+)/L$1/g;
    if (%globals) {
        my $re = join '|', map { quotemeta } sort keys %globals;
        $line =~ s/(?<![\w.\$])($re)\b/_$1/g;
    }
    return $line;
}

# ios64: "adrp xN, SYM" / "[xN, #:lo12:SYM]" (ELF) become SYM@PAGE /
# SYM@PAGEOFF (Mach-O); the global-symbol prefix is added afterwards.
sub macho64_addr {
    my ($line) = @_;
    $line =~ s/#?:lo12:(\w+)/$1\@PAGEOFF/g;
    $line =~ s/^(\s*adrp\s+\w+\s*,\s*)(\w+)(\s*)$/$1$2\@PAGE$3/;
    return $line;
}

# Globals must be known before their first use (a branch may precede the
# function's declaration), so read everything first.
my @lines = <STDIN>;
for (@lines) {
    $globals{$1} = 1 if /^\s*\.(?:asmcrypt_func|asmcrypt_hidden|globl|global|extern|hidden)\s+(\w+)/;
}
for (@lines) {
    $extdata{$1} = 1 if /^\s*\.asmcrypt_hidden\s+(\w+)/;
}
print translate_line($_) for @lines;
if (%nlptr) {
    print "\t.section\t__DATA,__nl_symbol_ptr,non_lazy_symbol_pointers\n\t.align\t2\n";
    for my $n (sort keys %nlptr) {
        print "L_$n\$non_lazy_ptr:\n\t.indirect_symbol\t_$n\n\t.long\t0\n";
    }
}

close STDOUT or die "arm-xlate.pl: error closing output: $!\n";
