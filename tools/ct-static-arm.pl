# tools/ct-static-arm.pl - 32-bit ARM (A32 and Thumb-2, unified and
# divided syntax, VFP/NEON) model for tools/ct-static.pl.  Loaded with
# `do`; defines package CT::Arch.
#
# Flags: f:N f:Z f:C f:V.  NEON: qN is vN, dN is v(N/2), sN is v(N/4) (a
# write to a part of a q register keeps the taint of the rest).
#
# Conditional execution: an instruction with a condition runs or not
# depending on the flags.  If those flags are SECRET, a predicated load,
# store or branch is a LEAK (which address is touched, or the path,
# depends on the secret); a predicated data instruction is a select: its
# destination becomes secret (old value or new, chosen by a secret) and
# nothing is reported, as for a csel / cmov.  If the flags are public
# the destination is the join of its old and new values.
use strict;
use warnings;

package CT::Arch;

my %ALIAS = (sp => 13, lr => 14, pc => 15, ip => 12, fp => 11, sl => 10, sb => 9);
my $COND = qr/eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al/;
my %CCF = (eq => 'Z', ne => 'Z', cs => 'C', hs => 'C', cc => 'C', lo => 'C', mi => 'N', pl => 'N',
           vs => 'V', vc => 'V', hi => 'CZ', ls => 'CZ', ge => 'NV', lt => 'NV', gt => 'ZNV', le => 'ZNV', al => '');

sub default_abi { return 'aapcs' }

sub strip_comment { return CT::strip_comment($_[0], '@', '//') }

sub reg {
    my ($r) = @_;
    $r = lc $r;
    $r =~ s/\[\d*\]$//;
    return "r$ALIAS{$r}" if exists $ALIAS{$r};
    return "r$1" if $r =~ /^r(\d+)$/ && $1 <= 15;
    return 'v' . $1 if $r =~ /^q(\d+)$/ && $1 <= 15;
    return 'v' . int($1 / 2) if $r =~ /^d(\d+)$/ && $1 <= 31;
    return 'v' . int($1 / 4) if $r =~ /^s(\d+)$/ && $1 <= 31;
    return 'apsr' if $r =~ /^(apsr_nzcv|cpsr|fpscr)$/;
    return undef;
}

sub split_ops { return CT::split_ops($_[0], '[{', ']}') }


sub reglist {
    my ($s) = @_;
    my @r;
    for my $p (split /,/, $s) {
        $p =~ s/^\s+|\s+$//g;
        next if $p eq '';
        if ($p =~ /^([rdsq])(\d+)(?:\[\d*\])?\s*-\s*[rdsq](\d+)/i) {
            push @r, reg(lc($1) . $_) for $2 .. $3;
            next;
        }
        my $c = reg($p) // return undef;
        push @r, $c;
    }
    return \@r;
}

sub parse_op {
    my ($o) = @_;
    my %op = (text => $o);
    if ($o =~ /^\{(.*)\}\s*(\^?)$/) {
        my $r = reglist($1) // return { bad => "register list $o" };
        @op{qw(t regs)} = ('list', $r);
        return \%op;
    }
    if ($o =~ /^\[\s*([^\],]+?)\s*(?::\d+)?\s*(?:,\s*([^\]]+))?\]\s*(!?)$/) {
        my ($b, $rest, $wb) = ($1, $2, $3);
        my $br = reg($b) // return { bad => "base $b" };
        @op{qw(t base wb disp)} = ('mem', $br, $wb ? 1 : 0, 0);
        if (defined $rest) {
            my @p = split_ops($rest);
            if ($p[0] =~ /^#/ || $p[0] =~ /^[-+]?\d/) { $op{disp} = CT::num($p[0]); $op{disp} //= undef }
            elsif ($p[0] =~ /^:/) { }
            else {
                (my $x = $p[0]) =~ s/^[-+]//;
                $op{index} = reg($x) // return { bad => "index $p[0]" };
                $op{disp} = undef;
            }
        }
        return \%op;
    }
    if ($o =~ /^#/) { @op{qw(t val)} = ('imm', CT::num($o)); return \%op }
    if ($o =~ /^(\w+)!$/ && defined reg($1)) { @op{qw(t reg wb)} = ('reg', reg($1), 1); return \%op }
    if ($o =~ /^(lsl|lsr|asr|ror|rrx)\b\s*(.*)$/i) {
        $op{t} = 'shift';
        $op{sreg} = reg($2) if $2 ne '' && $2 !~ /^#/;
        return \%op;
    }
    if ($o =~ /^[-+]?(r\d+|sp|lr|ip|fp|sl|sb|pc)$/i) { @op{qw(t reg)} = ('reg', reg($1)); return \%op }
    if (defined(my $r = reg($o))) { @op{qw(t reg)} = ('reg', $r); return \%op }
    if ($o =~ /^=?[A-Za-z_.][\w.\$+\-()]*$/ || $o =~ /^=/) { @op{qw(t name)} = ('sym', $o); return \%op }
    return { bad => "operand '$o'" };
}

# mnemonic -> (base, setflags, cond); both the unified (adds{cc}) and the
# divided (add{cc}s) orders, Thumb-2 .w/.n widths, NEON type suffixes kept
my @BASES = sort { length($b) <=> length($a) } qw(
    add adc sub sbc rsb rsc and orr eor bic mvn mov cmp cmn tst teq orn
    mul mla mls umull umlal smull smlal umaal lsl lsr asr ror rrx
    uxth uxtb sxth sxtb uxtah uxtab rev rev16 clz ubfx sbfx bfi bfc movw movt adr udiv sdiv
    ldr ldrb ldrh ldrsb ldrsh ldrd ldrex str strb strh strd strex
    ldm ldmia ldmib ldmda ldmdb ldmfd stm stmia stmib stmda stmdb stmfd push pop
    b bl blx bx cbz cbnz it ite itt itte ittt itee iteee ittee itet nop pld);

sub parse {
    my ($text) = @_;
    my ($mn, $rest) = $text =~ /^(\S+)\s*(.*)$/;
    $mn = lc $mn;
    my %p = (ops => [map { parse_op($_) } split_ops($rest)]);
    $mn =~ s/\.[wn]$//;
    if ($mn =~ /^(v\w+?)($COND)?(\.[\w.]+)?$/ && $mn =~ /^v/) {       # VFP/NEON
        my ($b, $c, $t) = ($1, $2, $3);
        if ($mn =~ /^(v[a-z]+\d?)(\.[\w.]+)?$/) { ($b, $c, $t) = ($1, undef, $2) }
        @p{qw(mn cond type)} = ($b, $c // 'al', $t // '');
        return \%p;
    }
    for my $b (@BASES) {
        next unless index($mn, $b) == 0;
        my $r = substr($mn, length $b);
        my ($s, $c) = (0, 'al');
        if ($r =~ /^(s?)($COND)?$/ && ($b !~ /^(b|bl|bx|blx)$/ || $1 eq '')) { ($s, $c) = ($1 ne '', $2 // 'al') }
        elsif ($r =~ /^($COND)(s?)$/) { ($c, $s) = ($1, $2 ne '') }
        elsif ($b =~ /^(ldr|str)$/ && $r =~ /^($COND)(b|h|sb|sh|d)$/) { ($b, $c) = ("$b$2", $1) }   # ldreqb
        elsif ($b =~ /^(ldm|stm)$/ && $r =~ /^($COND)(ia|ib|da|db|fd|ea)$/) { ($b, $c) = ("$b$2", $1) }
        else { next }
        @p{qw(mn s cond)} = ($b, $s, $c);
        return \%p;
    }
    @p{qw(mn cond)} = ($mn, 'al');
    return \%p;
}

sub ccv {
    my ($st, $cc) = @_;
    return main::tval(map { $st->{"f:$_"} // '0|' } split //, $CCF{$cc});
}
sub rv {
    my ($st, $op) = @_;
    return '0|' unless $op;
    return '0|' if $op->{t} eq 'imm' || $op->{t} eq 'sym';
    return $st->{ $op->{sreg} } // '0|' if $op->{t} eq 'shift' && $op->{sreg};
    return '0|' if $op->{t} eq 'shift';
    return '0|A:=sym:?' if $op->{t} eq 'reg' && $op->{reg} eq 'r15';   # pc: PC-relative addressing
    return $st->{ $op->{reg} } // '0|' if $op->{t} eq 'reg';
    return main::tval(map { $st->{$_} // '0|' } @{ $op->{regs} }) if $op->{t} eq 'list';
    return '0|';
}

# register writes go through here: predication and the def marks
our ($PRED, $PREDV);        # the current instruction is conditional / its condition's value
sub setreg {
    my ($st, $r, $v) = @_;
    $v = main::tval($v, $st->{$r} // '0|', $PREDV) if $PRED;
    $st->{$r} = $v;
    $st->{"d:$r"} = "0|D:$main::CUR_I";
}
sub flags {
    my ($st, $v) = @_;
    for (qw(N Z C V)) { $st->{"f:$_"} = $PRED ? main::tval($v, $st->{"f:$_"} // '0|', $PREDV) : main::tval($v) }
}

sub init { return CT::entry_state($_[0], [map { "r$_" } 0 .. 3], 0, 4, r13 => '0|S:0:0') }
# ARMv4 assemblers without bx: the modules spell `bx lr` as a word
sub data_insn {
    my ($stmt) = @_;
    return 'bx lr' if $stmt =~ /^\.(word|long|inst)\s+0xe12fff1e\s*$/i;
    return undef;
}
sub after_return { return $_[0] }
sub external_call {
    my ($st) = @_;
    $st->{"r$_"} = '1|' for 0 .. 3, 12, 14;
    $st->{"v$_"} = '1|' for 0 .. 15;
    $st->{"f:$_"} = '1|' for qw(N Z C V);
}

sub maddr {
    my ($st, $m, $what) = @_;
    my $b = $st->{ $m->{base} } // '0|';
    $b = '0|A:=sym:?' if $m->{base} eq 'r15';
    if (main::taint($b)) { main::leak("secret base register in address $m->{text}"); return '1|' }
    if (defined $m->{index}) {
        if (main::taint($st->{ $m->{index} } // '0|')) { main::leak("secret index register in address $m->{text}"); return '1|' }
        return main::offset_ptr($b, undef);
    }
    return main::offset_ptr($b, $m->{disp});
}

sub step {
    my ($p, $st, $text) = @_;
    my ($mn, @o) = ($p->{mn}, @{ $p->{ops} });
    for (@o) { if ($_->{bad}) { main::error("cannot parse $_->{bad}"); return { kind => 'stop' } } }
    local $PRED = $p->{cond} ne 'al';
    local $PREDV = $PRED ? ccv($st, $p->{cond}) : '0|';
    my $secret_pred = $PRED && main::taint($PREDV);
    return { kind => 'fall' } if $mn =~ /^(nop|it[te]*|pld|dmb|dsb|isb|vzeroupper)$/;

    # branches
    if ($mn eq 'b') {
        return { kind => 'jmp', target => $o[0]{name} } unless $PRED;
        main::leak("conditional branch on secret flags") if $secret_pred;
        return { kind => 'cjmp', target => $o[0]{name} };
    }
    if ($mn eq 'cbz' || $mn eq 'cbnz') {
        main::leak("$mn on a secret register") if main::taint(rv($st, $o[0]));
        return { kind => 'cjmp', target => $o[1]{name} };
    }
    if ($mn eq 'bl' && $o[0]{t} eq 'sym') {
        main::leak("conditional call on secret flags") if $secret_pred;
        main::error("conditional call") if $PRED;
        setreg($st, 'r14', '0|');
        return { kind => 'call', target => $o[0]{name} };
    }
    if ($mn eq 'bx' || $mn eq 'blx') {
        main::leak("conditional $mn on secret flags") if $secret_pred;
        if ($mn eq 'bx' && $o[0]{reg} eq 'r14') {
            return { kind => $PRED ? 'cret' : 'ret' };
        }
        main::leak("indirect $mn through a secret register") if main::taint(rv($st, $o[0]));
        main::error("indirect $mn (the checker cannot follow it)");
        return { kind => 'stop' };
    }

    # writes to pc other than these: returns (pop {.., pc}, ldr pc, [sp], #4, mov pc, lr)
    my $writes_pc = (grep { $_->{t} eq 'list' && grep { $_ eq 'r15' } @{ $_->{regs} } } @o)
                  || (@o && $o[0]{t} eq 'reg' && $o[0]{reg} eq 'r15' && $mn !~ /^(cmp|cmn|tst|teq|str\w*|push|stm\w*)$/);

    if ($mn =~ /^(ldr|ldrb|ldrh|ldrsb|ldrsh|ldrex|ldrd|str|strb|strh|strex|strd)$/) {
        main::leak("predicated $mn on secret flags") if $secret_pred;
        my $ld = $mn =~ /^ldr/;
        my $w = $mn =~ /b$/ ? 1 : $mn =~ /h$/ ? 2 : 4;
        my @r = ($o[0]);
        my $mi = 1;
        if ($mn =~ /d$/) {
            if ($o[1]{t} eq 'reg') { push @r, $o[1]; $mi = 2 }
            else { my ($n) = $o[0]{reg} =~ /(\d+)/; push @r, { t => 'reg', reg => 'r' . ($n + 1), text => '' } }
        }
        $mi++ if $mn eq 'strex';            # strex rd, rt, [rn]
        my $m = $o[$mi];
        if ($ld && $m && $m->{t} eq 'sym') {             # ldr r0, =sym / ldr r0, .Llit
            setreg($st, $o[0]{reg}, '0|A:=sym:?');
            return { kind => 'fall' };
        }
        return unknown("$mn operands") unless $m && $m->{t} eq 'mem';
        my $a = maddr($st, $m);
        for my $k (0 .. $#r) {
            my $ak = main::offset_ptr($a, 4 * $k);
            if ($ld) { setreg($st, $r[$k]{reg}, main::load($st, $ak, 0, $w)) }
            else { main::store($st, $ak, rv($st, $r[$k]), $w) }
        }
        if ($mn eq 'strex') { setreg($st, $o[0]{reg}, '0|') }
        my $post = $o[$mi + 1];
        if ($m->{wb}) { setreg($st, $m->{base}, $a) }
        elsif ($post) {
            main::leak("secret post-index register") if $post->{t} eq 'reg' && main::taint(rv($st, $post));
            my $d = $post->{t} eq 'imm' ? $post->{val} : undef;
            setreg($st, $m->{base}, main::offset_ptr($st->{ $m->{base} } // '0|', $d));
        }
        if ($ld && $o[0]{reg} eq 'r15') { return { kind => $PRED ? 'cret' : 'ret' } }
        return { kind => 'fall' };
    }
    if ($mn =~ /^(ldm|stm)(ia|ib|da|db|fd|ea)?$/ || $mn eq 'push' || $mn eq 'pop') {
        main::leak("predicated $mn on secret flags") if $secret_pred;
        my ($ld, $mode, $base, $wb, $list);
        if ($mn eq 'push') { ($ld, $mode, $base, $wb, $list) = (0, 'db', 'r13', 1, $o[0]) }
        elsif ($mn eq 'pop') { ($ld, $mode, $base, $wb, $list) = (1, 'ia', 'r13', 1, $o[0]) }
        else {
            $ld = $1 eq 'ldm';
            $mode = $2 // 'ia';
            $mode = $ld ? 'ia' : 'db' if $mode eq 'fd';
            ($base) = $o[0]{text} =~ /^(\w+)/;
            $base = reg($base) // return unknown("$mn base");
            $wb = $o[0]{text} =~ /!$/;
            $list = $o[1];
        }
        return unknown("$mn list") unless $list && $list->{t} eq 'list';
        my @regs = @{ $list->{regs} };
        my $n = @regs;
        my $b = $st->{$base} // '0|';
        if (main::taint($b)) { main::leak("secret base register in $mn") }
        my $start = $mode eq 'ia' ? 0 : $mode eq 'ib' ? 4 : $mode eq 'da' ? -4 * $n + 4 : -4 * $n;
        for my $k (0 .. $n - 1) {
            my $a = main::offset_ptr($b, $start + 4 * $k);
            if ($ld) { setreg($st, $regs[$k], main::load($st, $a, 0, 4)) }
            else { main::store($st, $a, $st->{ $regs[$k] } // '0|', 4) }
        }
        setreg($st, $base, main::offset_ptr($b, ($mode =~ /^i/ ? 4 : -4) * $n)) if $wb;
        return { kind => $PRED ? 'cret' : 'ret' } if $ld && grep { $_ eq 'r15' } @regs;
        return { kind => 'fall' };
    }

    if ($mn =~ /^v/) { return neon($p, \@o, $st) }
    return alu($p, \@o, $st, $writes_pc);
}

sub alu {
    my ($p, $o, $st, $writes_pc) = @_;
    my ($mn, @o) = ($p->{mn}, @$o);
    if ($mn =~ /^(cmp|cmn|tst|teq)$/) { flags($st, main::tval(map { rv($st, $_) } @o)); return { kind => 'fall' } }
    if ($mn eq 'adr') { setreg($st, $o[0]{reg}, '0|A:=sym:?'); return { kind => 'fall' } }
    my @dst = ($o[0]);
    my @src = @o[1 .. $#o];
    if ($mn =~ /^(umull|umlal|smull|smlal|umaal)$/) { @dst = @o[0, 1]; @src = @o[2, 3] }
    for (@dst) { return unknown("$mn destination") unless $_->{t} eq 'reg' }
    my @in = map { rv($st, $_) } @src;
    push @in, map { rv($st, $_) } @dst if $mn =~ /^(umlal|smlal|umaal|movt|bfi|bfc)$/;
    push @in, $st->{'f:C'} // '0|' if $mn =~ /^(adc|sbc|rsc|rrx)$/;
    my $known = $mn =~ /^(add|adc|sub|sbc|rsb|rsc|and|orr|eor|bic|mvn|mov|orn|mul|mla|mls|umull|umlal|smull|smlal|umaal|lsl|lsr|asr|ror|rrx|uxth|uxtb|sxth|sxtb|uxtah|uxtab|rev|rev16|clz|ubfx|sbfx|bfi|bfc|movw|movt|udiv|sdiv)$/;
    return unknown($mn) unless $known;
    my $v = main::tval(@in);
    main::leak("$mn with a secret operand (variable latency)") if $mn =~ /div$/ && main::taint($v);
    my $same = @src == 2 && $src[0]{t} eq 'reg' && $src[1]{t} eq 'reg' && $src[0]{reg} eq $src[1]{reg};
    $v = '0|' if $same && $mn =~ /^(eor|sub|bic)$/;
    if (!main::taint($v) && @src >= 1 && $src[0]{t} eq 'reg') {
        my $b = rv($st, $src[0]);
        if ($mn eq 'mov' && @src == 1) { $v = $b }
        elsif ($mn =~ /^(add|sub)$/ && main::origin($b) ne '') {
            if (@src == 1) { $v = main::offset_ptr($b, undef) }            # add rd, rm (two-operand form)
            elsif ($src[1]{t} eq 'imm' && @src == 2 && defined $src[1]{val}) { $v = main::offset_ptr($b, $mn eq 'add' ? $src[1]{val} : -$src[1]{val}) }
            elsif ($mn eq 'add' && $src[1]{t} eq 'reg' && $dst[0]{reg} ne 'r13') {
                my $def = main::origin($st->{"d:$src[1]{reg}"} // '0|D:E');
                my $sh = @src > 2 ? $src[2]{text} : '';
                $sh =~ s/\s+//g;
                $v = main::offset_sym($b, "$src[1]{reg}\@$def$sh");
            }
            elsif ($dst[0]{reg} eq 'r13') { $v = main::new_frame("var", $b) }
            else { $v = main::offset_ptr($b, undef) }
        } elsif ($mn eq 'bic' && $dst[0]{reg} eq 'r13') { $v = main::new_frame("al", $b) }
    }
    setreg($st, $_->{reg}, $v) for @dst;
    flags($st, $v) if $p->{s};
    if ($writes_pc) {
        if ($mn eq 'mov' && $src[0]{reg} eq 'r14') {
            main::leak("return predicated on secret flags") if $PRED && main::taint($PREDV);
            return { kind => $PRED ? 'cret' : 'ret' };
        }
        main::leak("write to pc from a secret value") if main::taint($v);
        main::error("computed jump ($mn to pc)");
        return { kind => 'stop' };
    }
    return { kind => 'fall' };
}

# NEON / VFP: every instruction is a data op on whole registers, except
# loads and stores (addresses checked) and moves to core registers.
sub neon {
    my ($p, $o, $st) = @_;
    my ($mn, @o) = ($p->{mn}, @$o);
    if ($PRED) { main::error("predicated $mn"); return { kind => 'stop' } }
    if ($mn =~ /^v(ld|st)([1-4])$/ || $mn =~ /^v(ld|st)(m\w*|r)$/ || $mn =~ /^v(push|pop)$/) {
        my ($kind, $form) = ($1, $2);
        my ($ld, $list, $m, $post, $wb, $base);
        if ($kind eq 'push' || $kind eq 'pop') {
            ($ld, $list, $base, $wb) = ($kind eq 'pop', $o[0], 'r13', 1);
            $m = { t => 'mem', base => 'r13', disp => ($ld ? 0 : -8 * @{ $o[0]{regs} }), text => 'sp' };
        } elsif ($form =~ /^m/) {
            ($ld, $list) = ($kind eq 'ld', $o[1]);
            ($base) = $o[0]{text} =~ /^(\w+)/;
            $base = reg($base);
            $wb = $o[0]{text} =~ /!$/;
            my $down = $form =~ /db/;
            $m = { t => 'mem', base => $base, disp => ($down ? -8 * @{ $list->{regs} } : 0), text => $o[0]{text} };
        } else {
            ($ld, $list, $m, $post) = ($kind eq 'ld', $o[0], $o[1], $o[2]);
            if ($form eq 'r') { $list = { t => 'list', regs => [$o[0]{reg}], text => $o[0]{text} } }
        }
        return unknown("$mn operands") unless $list && $m && $m->{t} eq 'mem';
        my $a = maddr($st, $m);
        my $size = 8 * @{ $list->{regs} };
        if ($ld) { my $v = main::tval(main::load($st, $a, 0, $size)); $st->{$_} = main::tval($v, $list->{text} =~ /\[/ ? ($st->{$_} // '0|') : '0|') for @{ $list->{regs} } }
        else { main::store($st, $a, rv($st, $list), $size) }
        if ($base && $wb) {
            my $n = @{ $list->{regs} };
            setreg($st, $base, main::offset_ptr($st->{$base} // '0|', ($kind eq 'push' || ($form // '') =~ /db/) ? -8 * $n : 8 * $n));
        } elsif ($m->{wb} || $post) {
            my $d = $m->{wb} && !$post ? $size : $post && $post->{t} eq 'imm' ? $post->{val} : undef;
            main::leak("secret post-index register") if $post && $post->{t} eq 'reg' && main::taint(rv($st, $post));
            setreg($st, $m->{base}, main::offset_ptr($st->{ $m->{base} } // '0|', $d));
        }
        return { kind => 'fall' };
    }
    if ($mn eq 'vmrs' || $mn eq 'vmsr') { return { kind => 'fall' } }
    return unknown($mn) unless $mn =~ /^v(add|addl|addw|addhn|sub|subl|subw|mul|mla|mls|mull|mlal|mlsl|qdmulh|shl|shr|sra|sri|sli|shll|shrn|rshrn|movn|movl|
        mov|dup|ext|zip|uzp|trn|rev64|rev32|and|orr|eor|bic|orn|bsl|bit|bif|mvn|neg|abs|padd|paddl|padal|cge|cgt|ceq|tst|
        swp|cnt|clz|min|max|tbl|tbx|qmovn|qshrn|rshr|rsra|ld1r)$/x;
    my @dst = ($o[0]);
    my @src = @o[1 .. $#o];
    # vmov r0, r1, d0 / vmov d0, r0, r1 / vmov.32 r0, d0[1]
    if ($mn eq 'vmov' && @o == 3 && $o[0]{reg} =~ /^r/ && $o[1]{reg} =~ /^r/) { @dst = @o[0, 1]; @src = ($o[2]) }
    my @in = map { rv($st, $_) } @src;
    push @in, rv($st, $o[0]) if $mn =~ /^v(mla|mls|mlal|mlsl|sra|sri|sli|bsl|bit|bif|padal|rsra|tbx)$/
                                || $o[0]{text} =~ /^[ds]\d|\[\d*\]$/;     # a part of a q register
    if ($mn =~ /^vtb[lx]$/) { main::leak("$mn with a secret index (a lookup)") if main::taint(rv($st, $src[-1])) }
    my $zero = $mn =~ /^v(eor|sub)$/ && @src == 2 && $src[0]{t} eq 'reg' && $src[1]{t} eq 'reg' && $src[0]{text} eq $src[1]{text};
    my $v = $zero ? '0|' : main::tval(@in);
    setreg($st, $_->{reg}, $v) for grep { $_->{t} eq 'reg' } @dst;
    return { kind => 'fall' };
}

sub unknown {
    my ($mn) = @_;
    main::error("unknown instruction '$mn'");
    return { kind => 'stop' };
}

1;
